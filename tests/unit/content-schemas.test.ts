// The content front matter schemas (shared by the site build and the search indexer), the Markdown
// reader, and the real content/ files: every file parses and every related term exists.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { articleSchema, glossarySchema } from '../../api/content/schemas.ts';
import {
  checkGlossaryReferences,
  ContentError,
  markdownHeadings,
  markdownToText,
  readArticles,
  readGlossary,
  splitFrontMatter,
} from '../../api/content/markdown.ts';

const goodTerm = {
  term: 'Escrow cushion',
  aliases: ['escrow reserve'],
  definition: 'Extra money a servicer may hold in escrow.',
  category: 'escrow-insurance',
  faqs: [{ question: 'How big can it be?', answer: 'Up to one-sixth of the annual disbursements.' }],
  related: ['escrow'],
  links: [{ title: 'CFPB', url: 'https://www.consumerfinance.gov/' }],
  updated: new Date('2026-11-01'),
};

const goodArticle = {
  title: 'How escrow works',
  description: 'What the servicer collects and why.',
  author: 'Editorial team',
  date: new Date('2026-10-01'),
  tags: ['escrow'],
  category: 'escrow',
};

describe('glossary front matter', () => {
  it('accepts a complete term and defaults aliases to an empty list', () => {
    expect(glossarySchema.parse(goodTerm).term).toBe('Escrow cushion');
    const { aliases: _aliases, ...withoutAliases } = goodTerm;
    expect(glossarySchema.parse(withoutAliases).aliases).toEqual([]);
  });

  it.each([
    ['a missing definition', { definition: undefined }],
    ['an empty definition', { definition: '  ' }],
    ['an unknown category', { category: 'misc' }],
    ['no FAQs', { faqs: [] }],
    ['four FAQs', { faqs: Array.from({ length: 4 }, () => goodTerm.faqs[0]) }],
    ['four links', { links: Array.from({ length: 4 }, () => goodTerm.links[0]) }],
    ['a link that is not a URL', { links: [{ title: 'x', url: 'javascript:alert(1)' }] }],
    ['a related slug with capitals', { related: ['Escrow'] }],
    ['an unknown field (a typo)', { relatd: ['escrow'] }],
    ['an invalid date', { updated: 'someday' }],
  ])('rejects %s', (_label, change) => {
    expect(glossarySchema.safeParse({ ...goodTerm, ...change }).success).toBe(false);
  });
});

describe('article front matter', () => {
  it('accepts a complete article, with or without an updated date', () => {
    expect(articleSchema.parse(goodArticle).category).toBe('escrow');
    expect(articleSchema.parse({ ...goodArticle, updated: '2026-11-01' }).updated).toEqual(new Date('2026-11-01'));
  });

  it.each([
    ['no author', { author: undefined }],
    ['an unknown category', { category: 'news' }],
    ['tags as a string', { tags: 'escrow' }],
    ['no date', { date: undefined }],
  ])('rejects %s', (_label, change) => {
    expect(articleSchema.safeParse({ ...goodArticle, ...change }).success).toBe(false);
  });
});

describe('Markdown reading', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-content-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('splits front matter from the body and reads unquoted dates as dates', () => {
    const { frontMatter, body } = splitFrontMatter('x.md', '---\ntitle: A\ndate: 2026-01-02\n---\n## Hello\nWorld\n');
    expect(frontMatter).toEqual({ title: 'A', date: new Date('2026-01-02T00:00:00Z') });
    expect(body).toBe('## Hello\nWorld\n');
  });

  it('names the file and the field when front matter is invalid', () => {
    fs.mkdirSync(path.join(dir, 'glossary'));
    fs.writeFileSync(path.join(dir, 'glossary', 'bad-term.md'), '---\nterm: Bad\ncategory: misc\n---\nBody\n');
    expect(() => readGlossary(dir)).toThrow(ContentError);
    expect(() => readGlossary(dir)).toThrow(/bad-term\.md: invalid front matter: .*definition.*category/s);
  });

  it('refuses a file without front matter', () => {
    fs.mkdirSync(path.join(dir, 'articles'));
    fs.writeFileSync(path.join(dir, 'articles', 'plain.md'), '# Just text\n');
    expect(() => readArticles(dir)).toThrow(/missing front matter/);
  });

  it('turns Markdown into plain text and headings', () => {
    const body =
      '## First *part*\nSee [the glossary](/glossary/apr) and `code`.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- item one\n### Second\n';
    expect(markdownHeadings(body)).toEqual(['First part', 'Second']);
    const text = markdownToText(body);
    expect(text).toContain('See the glossary and code.');
    expect(text).toContain('item one');
    expect(text).not.toMatch(/[|#*`[\]]/);
  });

  it('reports related terms that do not exist and terms that relate to themselves', () => {
    const entries = [
      { slug: 'a', file: 'a.md', body: '', data: { ...glossarySchema.parse(goodTerm), related: ['b', 'a', 'missing'] } },
      { slug: 'b', file: 'b.md', body: '', data: { ...glossarySchema.parse(goodTerm), related: ['a'] } },
    ];
    expect(checkGlossaryReferences(entries)).toEqual([
      'a: relates to itself',
      'a: related term "missing" has no file content/glossary/missing.md',
    ]);
  });
});

describe('the content in content/', () => {
  it('parses, and every related glossary term exists', () => {
    const glossary = readGlossary();
    expect(glossary.length).toBeGreaterThan(0);
    expect(checkGlossaryReferences(glossary)).toEqual([]);
    for (const collection of ['articles', 'learn'] as const) readArticles(undefined, collection);
  });

  it('links only to glossary terms, articles and learn pages that exist', () => {
    const known = new Set([
      ...readGlossary().map((entry) => `/glossary/${entry.slug}`),
      ...readArticles(undefined, 'articles').map((entry) => `/articles/${entry.slug}`),
      ...readArticles(undefined, 'learn').map((entry) => `/learn/${entry.slug}`),
    ]);
    const broken: string[] = [];
    const all = [...readGlossary(), ...readArticles(undefined, 'articles'), ...readArticles(undefined, 'learn')];
    for (const entry of all) {
      for (const match of entry.body.matchAll(/\]\((\/(?:glossary|articles|learn)\/[^)#\s]+)/g)) {
        const target = (match[1] ?? '').replace(/\/$/, '');
        if (!known.has(target)) broken.push(`${path.basename(entry.file)} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
