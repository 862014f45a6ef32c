// The documentation as files: README.md documents every configuration variable api/config.ts reads;
// every relative link of README.md, BENCHMARKS.md and docs/*.md points at a file that exists (and, into
// a document of docs/, at one of its headings); every document of docs/ has the front matter the
// site's `docs` collection needs; and links between documents become their pages under /docs.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, envSchema } from '../../api/config.ts';
import { DOC_SECTIONS } from '../../site/lib/doc-sections.ts';
import { docsHref } from '../../site/lib/docs-links-plugin.ts';

const DOCS_DIR = path.join(PROJECT_ROOT, 'docs');
const docFiles = fs
  .readdirSync(DOCS_DIR)
  .filter((name) => name.endsWith('.md'))
  .sort();
const read = (file: string): string => fs.readFileSync(file, 'utf8');

/** The body without code (fenced blocks and inline spans), where link-like text is not a link. */
const withoutCode = (markdown: string): string => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** Heading anchors as GitHub and the site's Markdown processor write them. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = (match[1] ?? '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** Relative links (`[text](target)`) of a Markdown file. */
function relativeLinks(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^([a-z]+:|\/|#)/.test(target));
}

describe('README.md', () => {
  const readme = read(path.join(PROJECT_ROOT, 'README.md'));

  it('documents every configuration variable in its configuration table', () => {
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
    const missing = Object.keys(envSchema.shape).filter((name) => !table.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('keeps the two commands and stays a front door (at most 300 lines)', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links every document of docs/', () => {
    for (const file of docFiles) expect(readme, file).toContain(`](docs/${file})`);
  });
});

describe('links between the documentation files', () => {
  const files = ['README.md', 'BENCHMARKS.md', ...docFiles.map((file) => path.join('docs', file))];

  it.each(files)('%s links only to files and headings that exist', (file) => {
    const full = path.join(PROJECT_ROOT, file);
    const broken: string[] = [];
    for (const link of relativeLinks(read(full))) {
      const [target = '', fragment] = link.split('#');
      const resolved = target === '' ? full : path.resolve(path.dirname(full), target);
      if (!fs.existsSync(resolved)) broken.push(`${link}: no file`);
      else if (fragment !== undefined && resolved.endsWith('.md') && !anchors(read(resolved)).has(fragment))
        broken.push(`${link}: no heading`);
    }
    expect(broken).toEqual([]);
  });
});

describe('documents of docs/', () => {
  it.each(docFiles)('%s has the front matter of the docs collection and no title heading of its own', (file) => {
    const text = read(path.join(DOCS_DIR, file));
    const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
    expect(match, 'front matter fence').not.toBeNull();
    const data = parse(match?.[1] ?? '') as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(['description', 'order', 'section', 'title']);
    expect(typeof data['title'] === 'string' && data['title'].length > 0).toBe(true);
    expect(typeof data['description'] === 'string' && data['description'].length > 0).toBe(true);
    expect(DOC_SECTIONS.map((section) => section.id)).toContain(data['section']);
    expect(Number.isInteger(data['order'])).toBe(true);
    // The server writes its own address over the build's placeholder origin in every built file, and
    // the site may be served anywhere: a document names neither literally.
    expect(text).not.toMatch(/localhost:3000|build-origin\.invalid/);
    // The page prints the title as its one h1.
    expect(withoutCode(match?.[2] ?? '')).not.toMatch(/^# /m);
  });

  it('have distinct places in the index', () => {
    const places = docFiles.map((file) => {
      const data = parse(/^---\n([\s\S]*?)\n---/.exec(read(path.join(DOCS_DIR, file)))?.[1] ?? '') as { section: string; order: number };
      return `${data.section} ${data.order}`;
    });
    expect(new Set(places).size).toBe(places.length);
  });
});

describe('docsHref', () => {
  it('turns a link to a sibling document into its page, fragment kept', () => {
    expect(docsHref('data-sync.md')).toBe('/docs/data-sync');
    expect(docsHref('./data-sync.md#dataset-versions')).toBe('/docs/data-sync#dataset-versions');
  });

  it('leaves every other link as written', () => {
    for (const href of ['/docs/api', 'https://example.org/a.md', '../README.md', 'sub/a.md', '#terms', 'data-sync'])
      expect(docsHref(href)).toBeUndefined();
  });
});
