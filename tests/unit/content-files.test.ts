// Checks the written content under content/ (glossary, articles, learn): front matter fields, counts,
// dates, word counts, and that every internal link points at a file or data page that exists.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'content');
const GLOSSARY_CATEGORIES = ['rates', 'costs', 'loan-types', 'process', 'credit', 'escrow-insurance', 'regulation', 'property', 'data'];
const ARTICLE_CATEGORIES = ['buying', 'refinancing', 'loan-types', 'costs', 'credit', 'escrow', 'rates', 'research', 'data'];
const AUTHORS = ['Mortgage Data Service Research', 'Mortgage Data Service Editorial'];
const DATA_PAGES = new Set(['/rates', '/loan-limits', '/escrow', '/calendar', '/docs/api']);
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const FIRST_DATE = '2026-01-05';
const LAST_DATE = '2026-11-20';

interface ContentFile {
  collection: string;
  slug: string;
  data: Record<string, unknown>;
  body: string;
}

/** Splits a Markdown file into its YAML front matter (parsed) and body; throws when the fence is missing. */
export function parseContentFile(text: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error('missing front matter fence');
  const data: unknown = parse(match[1] ?? '');
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('front matter is not a mapping');
  return { data: data as Record<string, unknown>, body: match[2] ?? '' };
}

function load(collection: string): ContentFile[] {
  const dir = path.join(root, collection);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((file) => ({
      collection,
      slug: file.slice(0, -3),
      ...parseContentFile(readFileSync(path.join(dir, file), 'utf8')),
    }));
}

/** YAML may give a date as a string (YAML 1.2) or a Date (YAML 1.1 loaders); both normalise to YYYY-MM-DD. */
function isoDate(value: unknown): string | undefined {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return undefined;
}

const words = (body: string): number =>
  body
    .replace(/[#|*`>[\]()_-]/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length;
const isString = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Every root-relative link in a Markdown body, without fragment or query. */
export function internalLinks(body: string): string[] {
  return [...body.matchAll(/\]\((\/[^)\s]*)\)/g)].map((m) => (m[1] ?? '').replace(/[#?].*$/, '').replace(/\/$/, '') || '/');
}

/** Problems with one link target, given the slugs that exist per collection. */
export function linkProblem(link: string, slugs: Record<string, Set<string>>): string | undefined {
  if (DATA_PAGES.has(link)) return undefined;
  const m = /^\/(glossary|articles|learn)\/([^/]+)$/.exec(link);
  if (!m) return `unknown internal page ${link}`;
  return slugs[m[1] ?? '']?.has(m[2] ?? '') ? undefined : `broken link ${link}`;
}

const glossary = load('glossary');
const articles = load('articles');
const learn = load('learn');
const slugs: Record<string, Set<string>> = {
  glossary: new Set(glossary.map((f) => f.slug)),
  articles: new Set(articles.map((f) => f.slug)),
  learn: new Set(learn.map((f) => f.slug)),
};

function glossaryProblems(f: ContentFile): string[] {
  const d = f.data;
  const out: string[] = [];
  if (!SLUG.test(f.slug)) out.push('slug is not kebab-case ASCII');
  if (!isString(d.term)) out.push('term missing');
  if (d.aliases !== undefined && !isStringArray(d.aliases)) out.push('aliases must be a list of strings');
  if (!isString(d.definition)) out.push('definition missing');
  if (!GLOSSARY_CATEGORIES.includes(String(d.category))) out.push(`bad category ${String(d.category)}`);
  const faqs = d.faqs;
  if (!Array.isArray(faqs) || faqs.length < 1 || faqs.length > 3) out.push('faqs must have 1 to 3 entries');
  else
    for (const q of faqs as Record<string, unknown>[]) {
      if (!isString(q.question) || !isString(q.answer)) out.push('faq without question or answer');
    }
  const related = d.related;
  if (!isStringArray(related) || related.length < 2 || related.length > 6) out.push('related must list 2 to 6 slugs');
  else
    for (const r of related) {
      if (r === f.slug) out.push('related lists itself');
      if (!slugs.glossary?.has(r)) out.push(`related slug ${r} does not exist`);
    }
  const links = d.links;
  if (!Array.isArray(links) || links.length < 1 || links.length > 3) out.push('links must have 1 to 3 entries');
  else
    for (const l of links as Record<string, unknown>[]) {
      if (!isString(l.title) || !/^https:\/\/[a-z0-9.-]+\.(gov|org|com)\//.test(String(l.url))) out.push(`bad link ${String(l.url)}`);
    }
  if (!isoDate(d.updated)) out.push('updated must be a YYYY-MM-DD date');
  const n = words(f.body);
  if (n < 120 || n > 300) out.push(`body has ${n} words (120 to 300 expected)`);
  return out;
}

function articleProblems(f: ContentFile): string[] {
  const d = f.data;
  const out: string[] = [];
  if (!SLUG.test(f.slug)) out.push('slug is not kebab-case ASCII');
  if (!isString(d.title)) out.push('title missing');
  if (!isString(d.description) || String(d.description).length > 200) out.push('description missing or over 200 characters');
  if (!AUTHORS.includes(String(d.author))) out.push(`bad author ${String(d.author)}`);
  const date = isoDate(d.date);
  if (!date || date < FIRST_DATE || date > LAST_DATE) out.push(`date ${String(d.date)} outside ${FIRST_DATE}..${LAST_DATE}`);
  if (d.updated !== undefined) {
    const updated = isoDate(d.updated);
    if (!updated || !date || updated < date || updated > LAST_DATE)
      out.push('updated must be a date between date and the last allowed date');
  }
  const tags = d.tags;
  if (!isStringArray(tags) || tags.length < 2 || tags.length > 5 || tags.some((t) => t !== t.toLowerCase()))
    out.push('tags must be 2 to 5 lowercase strings');
  if (!ARTICLE_CATEGORIES.includes(String(d.category))) out.push(`bad category ${String(d.category)}`);
  if (!/^## /m.test(f.body)) out.push('body has no ## heading');
  const n = words(f.body);
  if (n < 500 || n > 1100) out.push(`body has ${n} words (500 to 1,100 expected)`);
  return out;
}

describe('glossary content', () => {
  it('has exactly 131 terms', () => {
    expect(glossary).toHaveLength(131);
  });

  it('gives every term valid front matter, existing related slugs and a body of 120 to 300 words', () => {
    const problems = glossary.flatMap((f) => glossaryProblems(f).map((p) => `${f.slug}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('never defines the same term twice', () => {
    const terms = glossary.map((f) => String(f.data.term).toLowerCase());
    expect(new Set(terms).size).toBe(terms.length);
  });
});

describe('articles and learn pages', () => {
  it('has at least 70 articles, 24 learn pages and 94 in total', () => {
    expect(articles.length).toBeGreaterThanOrEqual(70);
    expect(learn.length).toBeGreaterThanOrEqual(24);
    expect(articles.length + learn.length).toBeGreaterThanOrEqual(94);
  });

  it('gives every page valid front matter, dates in range and a body of 500 to 1,100 words', () => {
    const problems = [...articles, ...learn].flatMap((f) => articleProblems(f).map((p) => `${f.collection}/${f.slug}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('has no slug shared between articles and learn pages', () => {
    const shared = [...(slugs.articles ?? [])].filter((s) => slugs.learn?.has(s));
    expect(shared).toEqual([]);
  });
});

describe('internal links', () => {
  it('resolve to existing glossary terms, articles, learn pages or data pages', () => {
    const problems = [...glossary, ...articles, ...learn].flatMap((f) =>
      internalLinks(f.body)
        .map((l) => linkProblem(l, slugs))
        .filter(Boolean)
        .map((p) => `${f.collection}/${f.slug}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('flags a link to a missing term and an unknown page', () => {
    const links = internalLinks('See [x](/glossary/no-such-term), [y](/pricing) and [z](/rates#weekly).');
    expect(links).toEqual(['/glossary/no-such-term', '/pricing', '/rates']);
    expect(links.map((l) => linkProblem(l, slugs))).toEqual([
      'broken link /glossary/no-such-term',
      'unknown internal page /pricing',
      undefined,
    ]);
  });
});

describe('front matter parsing', () => {
  it('rejects a file without a front matter fence', () => {
    expect(() => parseContentFile('# Title only\n')).toThrow('missing front matter fence');
  });

  it('reports missing fields and out-of-range dates on a bad article', () => {
    const bad = parseContentFile('---\ntitle: "x"\ndate: 2025-12-31\ntags: ["Rates"]\ncategory: "news"\n---\nshort\n');
    const problems = articleProblems({ collection: 'articles', slug: 'Bad_Slug', ...bad });
    expect(problems).toEqual(
      expect.arrayContaining([
        'slug is not kebab-case ASCII',
        'description missing or over 200 characters',
        'date 2025-12-31 outside 2026-01-05..2026-11-20',
        'tags must be 2 to 5 lowercase strings',
        'bad category news',
        'body has no ## heading',
      ]),
    );
  });
});
