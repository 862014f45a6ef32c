// Comments and documents that name a project file name one that exists: a path in a comment of
// api/, site/, scripts/ or tests/ (relative to the commenting file when it starts with ./ or ../,
// else to the project root), and a path in a code span of README.md, BENCHMARKS.md or docs/*.md.
// Files move; the sentences that point at them are easy to leave behind.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';

const CODE_DIRS = ['api', 'site', 'scripts', 'tests'];
const CODE_FILE = /\.(ts|mjs|astro)$/;
const ROOTS = '(?:api|site|scripts|tests|docs|data|content|public)/';
const EXTENSIONS = '(?:ts|mjs|json|js|astro|md|css|yaml|sql|csv)';
/** A file path: ./ or ../ or a top-level folder, then names, ending in one of the project's extensions. */
const PATH_IN_COMMENT = new RegExp(`(?<![\\w@/.-])((?:\\.\\.?/|${ROOTS})[\\w./[\\]-]*\\.${EXTENSIONS})(?!\\w)`, 'g');
const PATH_IN_CODE_SPAN = new RegExp(`\`(${ROOTS}[^\`\\s*<{]*\\.${EXTENSIONS})(?::\\d+)?\``, 'g');

function codeFiles(dir: string): string[] {
  return fs.readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.relative(PROJECT_ROOT, path.join(entry.parentPath, entry.name));
    return entry.isFile() && CODE_FILE.test(entry.name) && !file.includes('.artifacts') ? [file] : [];
  });
}

/** The comment part of each line: after `//` (not a URL's), or inside a block comment. */
function commentText(line: string): string | undefined {
  const slashes = /(?<![:"'`\w])\/\/(.*)$/.exec(line);
  if (slashes) return slashes[1];
  return /^\s*(?:\/\*\*?|\*)(.*)$/.exec(line)?.[1];
}

function exists(from: string, target: string): boolean {
  const resolved = target.startsWith('.') ? path.join(PROJECT_ROOT, path.dirname(from), target) : path.join(PROJECT_ROOT, target);
  return fs.existsSync(resolved);
}

describe('paths named in comments and documents', () => {
  it('name files that exist, in the code', () => {
    const missing: string[] = [];
    for (const file of CODE_DIRS.flatMap(codeFiles)) {
      fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const [, target = ''] of (commentText(line) ?? '').matchAll(PATH_IN_COMMENT))
            if (!exists(file, target.replace(/\.$/, ''))) missing.push(`${file}:${index + 1} names ${target}`);
        });
    }
    expect(missing).toEqual([]);
  });

  it('name files that exist, in the documents', () => {
    const documents = ['README.md', 'BENCHMARKS.md', ...fs.readdirSync(path.join(PROJECT_ROOT, 'docs')).map((name) => `docs/${name}`)];
    const missing: string[] = [];
    for (const document of documents.filter((name) => name.endsWith('.md'))) {
      fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const [, target = ''] of line.matchAll(PATH_IN_CODE_SPAN))
            if (!exists('', target)) missing.push(`${document}:${index + 1} names ${target}`);
        });
    }
    expect(missing).toEqual([]);
  });
});
