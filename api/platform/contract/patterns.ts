// Regular expressions for the JSON Schema of the lenient vocabulary (lenient.ts): each matches
// exactly the text a helper accepts, written with ASCII classes, groups, alternation and bounded
// repetition (no lookaround, no \u escapes). Words in any case are one scoped case-insensitive
// group, "fha" in any case is `(?i:fha)` (ECMAScript 2025 modifiers; Python, Go's RE2, Java, .NET
// and PCRE read the same group), a quarter of the bytes of `[Ff][Hh][Aa]`; the values of a choice
// share their prefixes (a trie) to keep it short.

/** Characters with a special meaning in a pattern, outside and inside a class. */
const SPECIAL = /[\\^$.*+?()[\]{}|/-]/g;
const escape = (text: string) => text.replace(SPECIAL, '\\$&');

/** One unit of a word: the characters that stand for it, or a separator pattern. */
type Atom = { chars: string[] } | { pattern: string };

/**
 * Text as a case-insensitive group matches it, lower-cased: ASCII letters, and the two characters
 * Unicode case folding (a validator's `u` flag, as ajv's) maps onto ASCII letters, the Kelvin sign
 * (k) and the long s (s). Every reader of words the patterns spell folds with it, so the listing and
 * the server agree on every spelling.
 */
export function foldCase(text: string): string {
  return text.replace(/[A-Z\u212a\u017f]/g, (char) => (char === '\u212a' ? 'k' : char === '\u017f' ? 's' : char.toLowerCase()));
}

function charClass(chars: string[]): string {
  return chars.length === 1 ? escape(chars[0]!) : `[${chars.map(escape).join('')}]`;
}

const atomText = (atom: Atom) => ('pattern' in atom ? atom.pattern : charClass(atom.chars));

interface TrieNode {
  end: boolean;
  children: Map<string, { atom: Atom; node: TrieNode }>;
}

function emit(node: TrieNode): string {
  const children = [...node.children.values()];
  if (children.length === 0) return '';
  // Leaves that are single characters share one class: "AK|AL|AR" → "A[KLR]".
  const leaves = children.filter(({ atom, node: child }) => 'chars' in atom && child.end && child.children.size === 0);
  const others = children.filter((child) => !leaves.includes(child));
  const alternatives = others.map(({ atom, node: child }) => `${atomText(atom)}${emit(child)}`);
  if (leaves.length > 0) alternatives.push(charClass(leaves.flatMap(({ atom }) => (atom as { chars: string[] }).chars)));
  const body = alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
  return node.end ? optional(body) : body;
}

/** `body` made optional: "x?" for one character, class or group, else "(?:body)?". */
function optional(body: string): string {
  const one = /^(?:\\.|[^\\[(]|\[(?:\\.|[^\]\\])*\])$/.test(body) || (body.startsWith('(?:') && balancedGroup(body));
  return one ? `${body}?` : `(?:${body})?`;
}

export interface WordsOptions {
  /** The pattern that stands for each space of a word (spaces are the words' separators). */
  space: string;
  /** Characters that also stand for a separator (choice keys: `_` is written with spaces, hyphens or underscores). */
  separatorChar?: string;
}

/**
 * A pattern (without anchors) matching every text that folds to one of `words` (lower-case,
 * already folded): one case-insensitive group, each separator as `options` says.
 */
export function wordsPattern(words: readonly string[], options: WordsOptions): string {
  const root: TrieNode = { end: false, children: new Map() };
  for (const word of new Set(words)) {
    let node = root;
    for (const char of word) {
      const separator = char === ' ' || char === options.separatorChar;
      const atom: Atom = separator ? { pattern: options.space } : { chars: [char] };
      const key = separator ? ' ' : char;
      let next = node.children.get(key);
      if (!next) {
        next = { atom, node: { end: false, children: new Map() } };
        node.children.set(key, next);
      }
      node = next.node;
    }
    node.end = true;
  }
  // The case-insensitive group is a group already: an alternation directly inside needs no other.
  const body = emit(root);
  return `(?i:${body.startsWith('(?:') && balancedGroup(body) ? body.slice(3, -1) : body})`;
}

/** Decimal digits of every whole number from `min` to `max` (0 ≤ min ≤ max), without leading zeros. */
export function rangePattern(min: number, max: number): string {
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < min) throw new Error(`rangePattern: bad range ${min}-${max}`);
  const parts: string[] = [];
  for (let digits = String(min).length; digits <= String(max).length; digits += 1) {
    const low = Math.max(min, digits === 1 ? 0 : 10 ** (digits - 1));
    const high = Math.min(max, 10 ** digits - 1);
    if (low <= high) parts.push(...sameLength(String(low), String(high)));
  }
  const merged = mergeWholeLengths(parts);
  return merged.length === 1 ? merged[0]! : `(?:${merged.join('|')})`;
}

/** A number of every length from `digits` on, without a leading zero: `[1-9]`, `[1-9]\d`, `[1-9]\d{2}`, … */
const WHOLE_LENGTH = /^\[1-9\](?:\\d(?:\{(\d+)\})?)?$/;
const wholeLength = (part: string): number | undefined => {
  const match = WHOLE_LENGTH.exec(part);
  return match ? 1 + (match[1] ? Number(match[1]) : part.endsWith('\\d') ? 1 : 0) : undefined;
};

/** Consecutive lengths said once: `[1-9]|[1-9]\d|[1-9]\d{2}` → `[1-9]\d{0,2}` (the same numbers, fewer bytes). */
function mergeWholeLengths(parts: string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    const first = wholeLength(parts[index]!);
    let last = first;
    while (first !== undefined && index + 1 < parts.length && wholeLength(parts[index + 1]!) === last! + 1) {
      index += 1;
      last = last! + 1;
    }
    if (first === undefined || last === first) out.push(parts[index]!);
    else out.push(`[1-9]\\d${first === 1 && last === 2 ? '?' : `{${first - 1},${last! - 1}}`}`);
  }
  return out;
}

const digitClass = (low: number, high: number) => (low === high ? String(low) : low === 0 && high === 9 ? '\\d' : `[${low}-${high}]`);
const anyDigits = (count: number) => (count === 0 ? '' : count === 1 ? '\\d' : `\\d{${count}}`);

/** Alternatives matching every number from `low` to `high`, both written with the same number of digits. */
function sameLength(low: string, high: string): string[] {
  if (low === high) return [low];
  const rest = low.length - 1;
  const [a, b] = [Number(low[0]), Number(high[0])];
  if (a === b) {
    const tails = sameLength(low.slice(1), high.slice(1));
    return [tails.length === 1 ? `${a}${tails[0]}` : `${a}(?:${tails.join('|')})`];
  }
  // A first digit whose every tail is in the range joins the digits between: 10-59 is `[1-5]\d`, not `1\d|[2-5]\d`.
  const lowWhole = /^0*$/.test(low.slice(1));
  const highWhole = /^9*$/.test(high.slice(1));
  const parts: string[] = [];
  if (!lowWhole) {
    const lowTails = sameLength(low.slice(1), '9'.repeat(rest));
    parts.push(lowTails.length === 1 ? `${a}${lowTails[0]}` : `${a}(?:${lowTails.join('|')})`);
  }
  const [first, last] = [lowWhole ? a : a + 1, highWhole ? b : b - 1];
  if (first <= last) parts.push(`${digitClass(first, last)}${anyDigits(rest)}`);
  if (!highWhole) {
    const highTails = sameLength('0'.repeat(rest), high.slice(1));
    parts.push(highTails.length === 1 ? `${b}${highTails[0]}` : `${b}(?:${highTails.join('|')})`);
  }
  return parts;
}

/**
 * Text of a whole number from `min` to `max` as `/^[+-]?\d+$/` reads it (leading zeros allowed;
 * "-0" is 0), without anchors.
 */
export function integerTextPattern(min: number, max: number): string {
  const positive = `\\+?0*${rangePattern(Math.max(min, 0), max)}`;
  return min <= 0 ? `(?:${positive}|-0+)` : positive;
}

export interface NumberTextOptions {
  /** Only whole values: a fraction, if written, is zeros ("80.0"). */
  whole?: boolean;
}

/**
 * Text of a number from `min` to `max` (whole bounds, 0 ≤ min) as `/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/`
 * reads it: "80", "+80.5", "80.", ".5"; a negative zero is 0. Without anchors.
 */
export function numberTextPattern(min: number, max: number, { whole = false }: NumberTextOptions = {}): string {
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0)
    throw new Error(`numberTextPattern: bounds must be whole and at least 0 (${min}-${max})`);
  const zeros = '(?:\\.0*)?';
  if (whole) return `${min === 0 ? '(?:' : ''}\\+?0*${rangePattern(min, max)}${zeros}${min === 0 ? `|-(?:0+${zeros}|\\.0+))` : ''}`;
  const alternatives: string[] = [];
  if (min <= max - 1) alternatives.push(`0*${rangePattern(min, max - 1)}(?:\\.\\d*)?`);
  alternatives.push(`0*${max}${zeros}`);
  if (min === 0) alternatives.push('\\.\\d+');
  const positive = `\\+?(?:${alternatives.join('|')})`;
  return min === 0 ? `(?:${positive}|-(?:0+${zeros}|\\.0+))` : positive;
}

/** A pattern matching the whole value, with the surrounding spaces trimming allows. */
export const trimmed = (body: string) => `^\\s*${topLevelAlternation(body) ? `(?:${body})` : body}\\s*$`;

/** Whether `body` has a `|` outside every group and class (then anchors must not touch it bare). */
function topLevelAlternation(body: string): boolean {
  let depth = 0;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index];
    if (char === '\\') {
      index += 1;
    } else if (char === '[') {
      // A class: its parentheses and bars are characters.
      for (index += 1; index < body.length && body[index] !== ']'; index += 1) {
        if (body[index] === '\\') index += 1;
      }
    } else if (char === '(') {
      depth += 1;
    } else if (char === ')') {
      depth -= 1;
    } else if (char === '|' && depth === 0) {
      return true;
    }
  }
  return false;
}

/** `body` as one group: itself if it is one already ("(?:…)", "(?i:…)"), else wrapped in "(?:…)". */
export const grouped = (body: string) => (body.startsWith('(') && balancedGroup(body) ? body : `(?:${body})`);

/** Whether `body` is one group "(?:…)" from its first to its last character. */
function balancedGroup(body: string): boolean {
  let depth = 0;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index];
    if (char === '\\') {
      index += 1;
      continue;
    }
    if (char === '[') {
      // Skip a class: its parentheses are characters.
      for (index += 1; index < body.length && body[index] !== ']'; index += 1) if (body[index] === '\\') index += 1;
      continue;
    }
    if (char === '(') depth += 1;
    if (char === ')') {
      depth -= 1;
      if (depth === 0 && index !== body.length - 1) return false;
    }
  }
  return depth === 0;
}
