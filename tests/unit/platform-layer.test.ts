// The platform layer (api/platform) is what every feature builds on: the database, HTTP plumbing,
// errors, dates, the dataset status. It imports no feature, so a feature's change never reaches the
// layer below it. Outside it, it may read only the configuration and the two geographic reference
// tables its place parameters check against, which import nothing of the project.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';

const API = path.join(PROJECT_ROOT, 'api');
const PLATFORM = path.join(API, 'platform');
const GEO_TABLES = ['states.ts', 'county-names.ts'].map((name) => path.join(API, 'geo', name));
const ALLOWED = [PLATFORM, path.join(API, 'config.ts'), ...GEO_TABLES];

const within = (target: string, place: string): boolean => target === place || target.startsWith(`${place}${path.sep}`);

describe('the platform layer', () => {
  it('imports no feature of api/', () => {
    const reached: string[] = [];
    for (const entry of fs.readdirSync(PLATFORM, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const file = path.join(entry.parentPath, entry.name);
      const text = fs.readFileSync(file, 'utf8');
      for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.[^'"]+)['"]/g)) {
        const target = path.resolve(path.dirname(file), specifier!);
        if (within(target, API) && !ALLOWED.some((place) => within(target, place))) {
          reached.push(`${path.relative(PROJECT_ROOT, file)} → ${specifier}`);
        }
      }
    }
    expect(reached, 'move what the platform needs into api/platform, or pass it in').toEqual([]);
  });

  it('leaves the geographic tables free of project imports', () => {
    const imports = GEO_TABLES.flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(/\bfrom\s*['"](\.[^'"]+)['"]/g)]);
    expect(imports.map((match) => match[1])).toEqual([]);
  });
});
