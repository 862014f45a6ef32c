// Reads our Markdown content straight from content/ (front matter + body) at run time, validated by
// the same zod schemas as the site build, and turns bodies into plain text and headings for search.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { PROJECT_ROOT } from '../config.ts';
import { articleSchema, glossarySchema, type ArticleFrontMatter, type GlossaryFrontMatter } from './schemas.ts';

export const CONTENT_DIR = path.join(PROJECT_ROOT, 'content');

export interface ContentEntry<Data> {
  /** File name without `.md`: the page slug. */
  slug: string;
  file: string;
  data: Data;
  /** Markdown body after the front matter. */
  body: string;
}

export type CollectionName = 'glossary' | 'articles' | 'learn';

export class ContentError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = 'ContentError';
  }
}

/** Splits `---\nyaml\n---\nbody`; throws when the front matter block is missing or not YAML. */
export function splitFrontMatter(file: string, text: string): { frontMatter: unknown; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text.replace(/^\uFEFF/, ''));
  if (!match) throw new ContentError(file, 'missing front matter (the file must start with a --- block)');
  try {
    // YAML 1.1 turns unquoted dates into Date objects, as Astro's loader does.
    return { frontMatter: parseYaml(match[1] ?? '', { schema: 'yaml-1.1' }), body: match[2] ?? '' };
  } catch (error) {
    throw new ContentError(file, `front matter is not valid YAML: ${(error as Error).message}`);
  }
}

/**
 * Collections already parsed, by schema and folder, with the checksum of the folder's files (names
 * and bytes) they were parsed from: the glossary service, the search index and the MCP resources read
 * the same files again (the tests build the app dozens of times a process), and parsing the YAML is
 * what costs. Callers get a copy.
 */
const parsedCollections = new WeakMap<z.ZodType, Map<string, { checksum: string; entries: ContentEntry<unknown>[] }>>();

function readCollection<Schema extends z.ZodType>(dir: string, schema: Schema): ContentEntry<z.output<Schema>>[] {
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') }));
  const hash = createHash('sha256');
  for (const { name, text } of files) hash.update(`${name}\0${text}\0`);
  const checksum = hash.digest('hex');
  const byFolder = parsedCollections.get(schema) ?? new Map<string, { checksum: string; entries: ContentEntry<unknown>[] }>();
  parsedCollections.set(schema, byFolder);
  const known = byFolder.get(path.resolve(dir));
  if (known?.checksum === checksum) return structuredClone(known.entries) as ContentEntry<z.output<Schema>>[];
  const entries = files.map(({ name, text }) => parseEntry(path.join(dir, name), text, schema));
  byFolder.set(path.resolve(dir), { checksum, entries });
  return structuredClone(entries);
}

function parseEntry<Schema extends z.ZodType>(file: string, text: string, schema: Schema): ContentEntry<z.output<Schema>> {
  const { frontMatter, body } = splitFrontMatter(file, text);
  const parsed = schema.safeParse(frontMatter);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new ContentError(file, `invalid front matter: ${problems.join('; ')}`);
  }
  return { slug: path.basename(file, '.md'), file, data: parsed.data, body };
}

export function readGlossary(contentDir = CONTENT_DIR): ContentEntry<GlossaryFrontMatter>[] {
  return readCollection(path.join(contentDir, 'glossary'), glossarySchema);
}

export function readArticles(contentDir = CONTENT_DIR, collection: 'articles' | 'learn' = 'articles'): ContentEntry<ArticleFrontMatter>[] {
  return readCollection(path.join(contentDir, collection), articleSchema);
}

/** Problems a schema cannot see: related terms that do not exist, a term relating to itself. */
export function checkGlossaryReferences(entries: readonly ContentEntry<GlossaryFrontMatter>[]): string[] {
  const slugs = new Set(entries.map((entry) => entry.slug));
  const problems: string[] = [];
  for (const entry of entries) {
    for (const related of entry.data.related) {
      if (related === entry.slug) problems.push(`${entry.slug}: relates to itself`);
      else if (!slugs.has(related)) problems.push(`${entry.slug}: related term "${related}" has no file content/glossary/${related}.md`);
    }
  }
  return problems;
}

/** The `##`/`###` headings of a Markdown body, in order. */
export function markdownHeadings(body: string): string[] {
  return [...body.matchAll(/^#{2,4}\s+(.+?)\s*#*\s*$/gm)].map((match) => plainInline(match[1] ?? ''));
}

/** Inline Markdown to text: links keep their words, emphasis and code marks go. */
function plainInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/(\*\*|__|\*|_|`)/g, '')
    .trim();
}

/** A Markdown body as plain prose for indexing and excerpts (headings, lists and tables kept as text). */
export function markdownToText(body: string): string {
  return body
    .replace(/```[\s\S]*?```/g, ' ')
    .split(/\r?\n/)
    .map((line) =>
      plainInline(
        line
          .replace(/^#{1,6}\s+/, '')
          .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')
          .replace(/^\s*>\s?/, '')
          .replace(/^\s*\|?[\s:|-]+\|?\s*$/, '')
          .replace(/\|/g, ' '),
      ),
    )
    .filter((line) => line.length > 0)
    .join('\n')
    .replace(/[ \t]+/g, ' ');
}
