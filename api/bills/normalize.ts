// Small helpers shared by the XML and JSON parsers: coerce parsed nodes to strings and lists, turn
// the publisher's summary HTML into plain text, and order actions.
import type { BillAction } from './types.ts';

/** A parsed XML node as fast-xml-parser gives it (strings kept as strings). */
export type Node = Record<string, unknown>;

/** One node, a list of them, an empty element ('') or nothing, as a list of nodes. */
export function list(value: unknown): Node[] {
  if (value === undefined || value === null || value === '') return [];
  const items = Array.isArray(value) ? value : [value];
  return items.filter((item): item is Node => typeof item === 'object' && item !== null);
}

export function node(value: unknown): Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : {};
}

/** The text of a leaf (string or number); null for empty or missing elements. */
export function str(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** The date part (YYYY-MM-DD) of a date or timestamp, or null. */
export function dateOnly(value: unknown): string | null {
  const text = str(value);
  const match = text === null ? null : /^(\d{4}-\d{2}-\d{2})/.exec(text);
  return match?.[1] ?? null;
}

export function bool(value: unknown): boolean {
  return value === true || (typeof value === 'string' && ['true', 'y', 'yes'].includes(value.trim().toLowerCase()));
}

const NAMED_ENTITIES: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  ndash: '–',
  mdash: '—',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  hellip: '…',
  sect: '§',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return safeCodePoint(Number.parseInt(name.slice(2), 16), whole);
    if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10), whole);
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/**
 * CRS summaries are HTML (paragraphs, lists, bold headings). Keep the paragraph structure as blank
 * lines so pages can render paragraphs without ever rendering the publisher's markup.
 */
export function htmlToText(html: string): string {
  const withBreaks = html
    .replace(/<\s*(br)\s*\/?>/gi, '\n')
    .replace(/<\s*\/\s*(p|div|li|h[1-6]|ul|ol|pre)\s*>/gi, '\n\n')
    .replace(/<\s*li[^>]*>/gi, '• ');
  const text = decodeEntities(withBreaks.replace(/<[^>]*>/g, ' '));
  return text
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.replace(/[ \t\r\n\u00a0]+/g, ' ').trim())
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

/** Newest first; same-day actions by time when given, otherwise in publisher order. */
export function sortActions(actions: BillAction[]): BillAction[] {
  return actions
    .map((action, index) => ({ action, index }))
    .sort(
      (a, b) => b.action.date.localeCompare(a.action.date) || (b.action.time ?? '').localeCompare(a.action.time ?? '') || a.index - b.index,
    )
    .map(({ action }) => action);
}
