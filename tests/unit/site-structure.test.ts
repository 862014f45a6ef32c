// The site's shape: pages, components, layouts and the site's helpers (site/lib) read the service's
// modules (api/) only through the view layer (site/views), so a change inside api/ meets the site in
// one place instead of in every page; and no line of site/ is over 120 characters, so a page reads
// without scrolling sideways.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';

const SITE = path.join(PROJECT_ROOT, 'site');
const API = path.join(PROJECT_ROOT, 'api');
const MAX_LINE = 120;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every module a file names: static and dynamic imports, and re-exports. */
function specifiers(text: string): string[] {
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm);
  return [...found].map((match) => match[1]!);
}

const relative = (file: string): string => path.relative(PROJECT_ROOT, file);

describe('the site', () => {
  it('reads api/ from pages, components, layouts and site/lib only through site/views', () => {
    const direct: string[] = [];
    for (const folder of ['pages', 'components', 'layouts', 'lib']) {
      for (const file of filesUnder(path.join(SITE, folder))) {
        for (const specifier of specifiers(fs.readFileSync(file, 'utf8'))) {
          if (!specifier.startsWith('.')) continue;
          const target = path.resolve(path.dirname(file), specifier);
          if (target === API || target.startsWith(`${API}${path.sep}`)) direct.push(`${relative(file)} → ${specifier}`);
        }
      }
    }
    expect(direct, 'import these through a module of site/views').toEqual([]);
  });

  it('has no line over 120 characters', () => {
    const long: string[] = [];
    for (const file of filesUnder(SITE)) {
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (line.length > MAX_LINE) long.push(`${relative(file)}:${index + 1} (${line.length})`);
        });
    }
    expect(long).toEqual([]);
  });
});
