// The built-in answerer: recognises the question's intent and entities, calls the same services as
// the MCP tools, and composes a readable answer with figures, as-of dates and sources. It runs when
// no model is configured and whenever the model fails. It never invents a number: every figure it
// prints comes from a service result.
import type { Answerer, AnswerEvent, AskRequest } from '../types.ts';
import { extractEntities, type Entities } from './entities.ts';
import { classifyIntent, type Intent } from './intents.ts';
import type { AnswerDraft, Composer, BuiltinDeps } from './draft.ts';
import { splitForStreaming } from './split.ts';
import { answerDefinition, definitionSubject } from './answer-definition.ts';
import type { GlossaryService } from '../../glossary/service.ts';
import { answerFromSearch } from './answer-search.ts';
import { answerAdvice, answerPersonalData } from './answer-guardrails.ts';
import { answerEscrow } from './answer-escrow.ts';
import { answerCalendar } from './answer-calendar.ts';
import { answerRates } from './answer-rates.ts';
import { answerLoanLimits } from './answer-loan-limits.ts';
import { answerHmda } from './answer-hmda.ts';
import { answerSeries } from './answer-series.ts';
import { answerWithReader, readerContext } from './answer-reader.ts';
import { readFrame } from './reader/read-frame.ts';
import { independentParts } from './independent-parts.ts';
import { answerBill } from './answer-bills.ts';
import { answerHmdaCode } from './answer-hmda-code.ts';
import { answerIncome } from './answer-income.ts';
import { refusalText, sameNameText } from './reader/honour.ts';
import type { Frame } from './reader/frame.ts';
import { findState } from '../../geo/states.ts';

const COMPOSERS: Record<Intent, Composer> = {
  escrow: answerEscrow,
  loan_limits: answerLoanLimits,
  rates: answerRates,
  calendar: answerCalendar,
  hmda: answerHmda,
  series: answerSeries,
  definition: answerDefinition,
  advice: answerAdvice,
  personal_data: answerPersonalData,
  search: answerFromSearch,
};

/** Intents whose questions the question reader may plan (not the guardrails or escrow); the reader declines the rest. */
const PLANNED_INTENTS = new Set<Intent>(['loan_limits', 'rates', 'calendar', 'hmda', 'series', 'definition', 'search']);

/**
 * Follow-ups ("and in Texas?") inherit the topic and the facts of the earlier user turns; what the
 * new question states wins.
 */
export function understand(request: AskRequest, glossary?: GlossaryService): { intent: Intent; entities: Entities } {
  const earlier = request.history.filter((turn) => turn.role === 'user').map((turn) => turn.content);
  let intent = classifyIntent(request.message);
  let entities: Entities = {};
  for (const turn of earlier) entities = { ...entities, ...extractEntities(turn) };
  const own = extractEntities(request.message);
  if (intent === 'search' && earlier.length > 0 && Object.keys(own).length > 0 && request.message.length < 80) {
    const previous = earlier
      .map(classifyIntent)
      .reverse()
      .find((candidate) => candidate !== 'search');
    if (previous) intent = previous;
  }
  // "What is HMDA?" or "What is an escrow cushion?" asks what a term means, not for data about it:
  // when the whole subject of a "what is" question is a glossary term, define it.
  if (glossary && /\b(what is|what's|what are|what does|define|definition|meaning)\b/i.test(request.message) && !own.state && !own.year) {
    const subject = definitionSubject(request.message);
    try {
      if (subject && glossary.lookup(subject).match === 'exact') intent = 'definition';
    } catch {
      // not a glossary term
    }
  }
  // A new state makes an earlier county meaningless.
  if (own.state && !own.county) delete entities.county;
  entities = { ...entities, ...own };
  return { intent, entities };
}

/**
 * The place and units the reader read, for a look-up composer whose own rules did not see them
 * ("Californians", "Naugatuck Valley Planning Region", "a triplex"): a composer given no state
 * answers for the nation, and one given no units for one unit — another question's answer.
 */
function withFramePlace(entities: Entities, frame: Frame | undefined): Entities {
  if (!frame) return entities;
  const states = frame.places.filter((place) => place.kind === 'state');
  const counties = frame.places.filter((place) => place.kind === 'county');
  const next = { ...entities };
  const [county] = counties;
  // The county the reader found, with its state ("Santa Clara County" names no state; the gazetteer
  // knows it), also over a state the composer's rules took from the county's name ("Washington County, Oregon").
  if (counties.length === 1 && county?.kind === 'county' && (!next.county || !next.state || next.state.code !== county.state)) {
    next.county = county.name.replace(/, [A-Z]{2}$/, '').replace(/ County$/, '');
    next.state = findState(county.state) ?? next.state;
  }
  // "a triplex": the units the reader read, which the composers' own rules may not.
  if (frame.qualifiers.units !== undefined && next.units === undefined) next.units = frame.qualifiers.units;
  const [state] = states;
  if (!next.state && states.length === 1 && state?.kind === 'state') {
    const info = findState(state.code);
    if (info) next.state = info;
  }
  return next;
}

/** The draft of one question: its refusals first, then the reader's plan or a look-up composer. */
async function draftFor(request: AskRequest, deps: BuiltinDeps): Promise<AnswerDraft> {
  const { intent, entities } = understand(request, deps.services.glossary);
  const input = { question: request.message, entities, deps };
  // Every question the reader may plan is read into a frame first: what cannot be answered is
  // said first, whoever answers the rest (the reader's plan, or a look-up composer).
  const bill = PLANNED_INTENTS.has(intent)
    ? (answerHmdaCode(request.message, deps) ?? (await answerIncome(request.message, deps)) ?? (await answerBill(request.message, deps)))
    : undefined;
  const read = PLANNED_INTENTS.has(intent) && !bill ? await answerWithReader(input, { seriesQuestion: intent === 'series' }) : undefined;
  let draft = bill ?? read?.draft;
  if (read && read.frame.refusals.some((refusal) => refusal.blocking)) {
    // The refusal first; a clause it does not touch is still answered.
    const rest = await independentParts(request.message, read.frame, {
      read: async (clause) => (await readFrame(clause, await readerContext(deps))).frame,
      answer: (clause) => draftFor({ message: clause, history: [] }, deps),
    });
    const refusal = draft ?? { text: refusalText(read.frame.refusals) ?? '', sources: [] };
    if (rest) draft = joinDrafts(refusal, rest);
  }
  if (!draft) {
    // A rate question the intent rules took for a search ("the 30-year rate for someone with a 700 FICO"): the rates composer.
    const frame = read?.frame;
    const personalRate =
      frame?.topic === 'rate' &&
      frame.qualifiers.creditScore !== undefined &&
      (frame.places.length > 0 || frame.qualifiers.termYears !== undefined);
    const composer = (intent === 'search' || intent === 'definition') && personalRate ? 'rates' : intent;
    draft = await COMPOSERS[composer]({ ...input, entities: withFramePlace(entities, read?.frame) });
    const first = refusalText(read?.frame.refusals ?? []);
    if (first) draft = { ...draft, text: `${first}\n\n${draft.text}` };
  }
  // A county whose name several states share, read as one of them: said before anything else.
  const sameName = read ? sameNameText(read.frame) : undefined;
  if (sameName && !draft.text.startsWith(sameName)) draft = { ...draft, text: `${sameName}\n\n${draft.text}` };
  return draft;
}

/** Two drafts one after the other, a paragraph the first already says (a place's reading) not said again. */
const joinDrafts = (first: AnswerDraft, second: AnswerDraft): AnswerDraft => ({
  text: [...new Set([...first.text.split('\n\n'), ...second.text.split('\n\n')])].join('\n\n'),
  sources: [...new Set([...first.sources, ...second.sources])],
  versions: [...(first.versions ?? []), ...(second.versions ?? [])],
});

export function createBuiltinAnswerer(deps: BuiltinDeps): Answerer {
  return {
    name: 'built-in',
    async *answer(request: AskRequest, signal: AbortSignal): AsyncGenerator<AnswerEvent> {
      const draft = await draftFor(request, deps);
      for (const url of draft.sources) yield { type: 'source', url };
      for (const version of draft.versions ?? []) yield { type: 'version', version };
      for (const piece of splitForStreaming(draft.text)) {
        if (signal.aborted) return;
        yield { type: 'text', text: piece };
      }
    },
  };
}
