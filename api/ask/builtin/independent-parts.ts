// A part that cannot be answered must not silence a part that can: "What rate did Rocket Mortgage
// give in Travis County last year, and what is the 2024 FHA one-unit limit there?" refuses the
// lender's rate first, then answers the limit. The question is cut into its clauses (compromise);
// a clause whose own read holds no blocking refusal is answered on its own, with the place the
// question named carried into it where it points back ("there", "that county": data,
// `placeReferences` in data/ask/reader-words.json).
import nlp from 'compromise';
import type { AnswerDraft } from './draft.ts';
import type { Frame } from './reader/frame.ts';
import { lexicon } from './reader/lexicon.ts';

/** Whether a clause asks on its own: it opens, after any joining word, with a question word or a verb ("and what is …", "give …"). */
const asksAlone = (clause: string) => nlp(clause).has('^(and|but|also|plus)? (#QuestionWord|#Verb)');

/**
 * The parts of a question, without the joining word ("and what is …" → "what is …"). compromise
 * cuts clauses at every comma; a piece that does not ask on its own ("Arizona this year") stays
 * with the part before it.
 */
function clausesOf(question: string): string[] {
  const pieces = (nlp(question) as unknown as { clauses(): { out(format: 'array'): string[] } }).clauses().out('array');
  const parts: string[] = [];
  for (const piece of pieces) {
    const text = piece.trim();
    if (parts.length > 0 && !asksAlone(text)) parts[parts.length - 1] += ` ${text}`;
    else parts.push(text);
  }
  return parts
    .map((part) => part.replace(/^(and|but|also|plus)\s+/i, '').replace(/[,;]+$/, ''))
    .filter((part) => part.split(/\s+/).length >= 3);
}

/** The clause with a word pointing back at a place replaced by the place the whole question named. */
export function withPlace(clause: string, frame: Frame): string {
  const named = frame.places.filter((place) => place.kind !== 'nation');
  if (named.length !== 1 || !named[0]) return clause;
  const name = named[0].name;
  for (const [phrase, replacement] of Object.entries(lexicon().placeReferences)) {
    const pattern = new RegExp(`\\b${phrase.replace(/ /g, '\\s+')}\\b`, 'i');
    if (pattern.test(clause)) return clause.replace(pattern, replacement.replace('{place}', name));
  }
  return clause;
}

export interface PartReader {
  /** Whether a clause, read alone, is refused as a whole. */
  blocked(clause: string): Promise<boolean>;
  /** The answer to a clause, asked alone. */
  answer(clause: string): Promise<AnswerDraft>;
}

/**
 * The answers of the clauses a blocking refusal does not touch, or undefined when every clause is
 * refused (or the question has one clause): the refusal alone then answers.
 */
export async function independentParts(question: string, frame: Frame, reader: PartReader): Promise<AnswerDraft | undefined> {
  const clauses = clausesOf(question);
  if (clauses.length < 2) return undefined;
  const free: string[] = [];
  for (const clause of clauses) if (!(await reader.blocked(clause))) free.push(withPlace(clause, frame));
  if (free.length === 0 || free.length === clauses.length) return undefined;
  const drafts = await Promise.all(free.map((clause) => reader.answer(clause)));
  return {
    text: drafts.map((draft) => draft.text).join('\n\n'),
    sources: [...new Set(drafts.flatMap((draft) => draft.sources))],
    versions: drafts.flatMap((draft) => draft.versions ?? []),
  };
}
