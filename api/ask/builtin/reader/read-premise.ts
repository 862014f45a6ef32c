// A direction a question takes for granted: "why did the conforming limit go down in 2023?" claims
// a fall the figures may not show, and "when the Fed raised rates in 2020" a decision the data here
// does not hold (the calendar has the Fed's dates, not its decisions). Read here, checked against the
// figures when the answer is composed and corrected first. The words are data (reader-words.json).
import { lexicon } from './lexicon.ts';
import { findPhrase, type Coverage } from './words.ts';

/** How many words an actor may stand before its verb ("the Fed last raised"). */
const ACTOR_REACH = 3;

const firstAt = (coverage: Coverage, phrases: readonly string[]) =>
  Math.min(...phrases.flatMap((phrase) => findPhrase(coverage.words, phrase).map((indexes) => indexes[0] as number)), Infinity);

/** "The Fed raised rates": the actor and its verb, as written; undefined when no actor moves. */
function actorMove(coverage: Coverage, verbs: readonly string[]): string | undefined {
  const { actors } = lexicon().premises;
  for (const actor of actors)
    for (const at of findPhrase(coverage.words, actor)) {
      const end = at.at(-1) as number;
      for (const verb of verbs)
        for (const span of findPhrase(coverage.words, verb)) {
          const start = span[0] as number;
          if (start <= end || start - end > ACTOR_REACH) continue;
          // "raised rates": the object said with its verb.
          const last = (span.at(-1) as number) + (coverage.words[(span.at(-1) as number) + 1]?.root === 'rate' ? 1 : 0);
          return coverage.words
            .slice(at[0], last + 1)
            .map((word) => word.text)
            .join(' ');
        }
    }
  return undefined;
}

/** The direction claimed in a question asking for a cause, and an actor's move claimed anywhere. */
export function readPremise(coverage: Coverage): { claimed?: 'up' | 'down'; claimedActor?: string } {
  const { asks, up, down } = lexicon().premises;
  const claimedActor = actorMove(coverage, [...up, ...down]);
  if (claimedActor) return { claimedActor };
  if (firstAt(coverage, asks) === Infinity) return {};
  const [upAt, downAt] = [firstAt(coverage, up), firstAt(coverage, down)];
  if (upAt === Infinity && downAt === Infinity) return {};
  return { claimed: upAt < downAt ? 'up' : 'down' };
}
