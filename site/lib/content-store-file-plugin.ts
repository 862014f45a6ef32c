// The build's plugin that moves the content collections' data store out of the server bundle's
// code into a JSON file beside it, read when the bundle loads.
//
// Astro writes the store into its module as one string literal, `JSON.parse("...")`. A running
// server never lets go of that: V8 keeps every module's source (4.5 MiB here, as two bytes a
// character once one character is not ASCII) and the literal in the compiled module (another
// 4.3 MiB), beside the parsed store it actually uses. Read from a file, the text is garbage once
// parsed. Any other shape of the module (a chunked store, a later Astro) is left as Astro wrote it.
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Astro's resolved id of the data store module (astro/dist/content/consts.js). */
const DATA_STORE_MODULE = '\0astro:data-layer-content';
/** The module as Astro writes it for a store in one file. */
const INLINE_STORE = /^export default JSON\.parse\(("(?:[^"\\]|\\.)*")\)$/s;
/** The file, in the server build's folder. */
export const STORE_FILE = 'content-data-store.json';
/** Stands for the file's address relative to the chunk that reads it, until the chunk's place is known. */
const STORE_ADDRESS = '__MDS_CONTENT_STORE_ADDRESS__';

export function contentStoreFile(): Plugin {
  // The store each server build read, written beside its output once the bundle is written.
  const stores = new Map<string, string>();
  return {
    name: 'mds:content-store-file',
    apply: 'build',
    transform: {
      filter: { id: new RegExp(`^${DATA_STORE_MODULE}$`) },
      handler(code) {
        if (this.environment.config.consumer !== 'server') return undefined;
        const literal = INLINE_STORE.exec(code.trim())?.[1];
        if (literal === undefined) return undefined;
        stores.set(this.environment.name, JSON.parse(literal) as string);
        return {
          code:
            "import { readFileSync } from 'node:fs';\n" +
            `export default JSON.parse(readFileSync(new URL(${JSON.stringify(STORE_ADDRESS)}, import.meta.url), ` +
            `'utf8'));\n`,
          map: { mappings: '' },
        };
      },
    },
    renderChunk(code, chunk) {
      if (!code.includes(STORE_ADDRESS)) return null;
      const relative = path.posix.relative(path.posix.dirname(chunk.fileName), STORE_FILE);
      return { code: code.replaceAll(STORE_ADDRESS, relative.startsWith('.') ? relative : `./${relative}`), map: null };
    },
    writeBundle(options) {
      const store = stores.get(this.environment.name);
      if (store === undefined || options.dir === undefined) return;
      fs.writeFileSync(path.join(options.dir, STORE_FILE), store);
    },
  };
}
