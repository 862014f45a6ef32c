// Questions about a bill the service tracks, named by its number ("H.R. 6774", "S. 2651") or its
// title ("the ROAD to Housing Act"): the bill's record from the bills service — sponsor, date
// introduced, cosponsors, committees, latest action, and the public law it became. Read with the
// reader's words (compromise), not patterns; a bill the service does not track is said so.
import type { BillDetail } from '../../bills/contract.ts';
import type { AnswerDraft, BuiltinDeps } from './draft.ts';
import { formatDate } from './draft.ts';
import { wordsOf, type Word } from './reader/words.ts';

const BILL_TYPES: Record<string, string> = { hr: 'H.R.', s: 'S.', hres: 'H.Res.', sres: 'S.Res.', hjres: 'H.J.Res.', sjres: 'S.J.Res.' };

/** The bill a question names: "H.R. 6774", else the capitalised title that ends in "Act". */
export function billNamed(question: string): string | undefined {
  const words = wordsOf(question);
  for (const word of words) {
    const next = words[word.index + 1];
    const type = BILL_TYPES[word.normal.replaceAll('.', '')];
    if (type && next && Number.isInteger(Number(next.normal))) return `${type} ${next.normal}`;
  }
  const act = words.find((word) => word.normal === 'act' && word.text === 'Act');
  if (!act) return undefined;
  const title: Word[] = [act];
  for (let index = act.index - 1; index >= 0; index -= 1) {
    const word = words[index] as Word;
    const capitalised = word.text.charAt(0) !== word.text.charAt(0).toLowerCase();
    if (!capitalised && !['to', 'the', 'of', 'for', 'and', 'a', 'on', 'in'].includes(word.normal)) break;
    title.unshift(word);
  }
  while (title[0] && title[0].text.charAt(0) === title[0].text.charAt(0).toLowerCase()) title.shift();
  return title.length > 1 ? title.map((word) => word.text).join(' ') : undefined;
}

function describe(bill: BillDetail): string {
  const sponsor = bill.sponsor_detail ?? null;
  const who = sponsor
    ? `${sponsor.name} (${[sponsor.party, sponsor.state].filter(Boolean).join('-')}; ${sponsor.full_name})`
    : 'no sponsor on record';
  const lines = [
    `**${bill.title}**, ${bill.citation}: ${bill.status_label}.`,
    `- Sponsor: ${who}; introduced ${formatDate(bill.introduced_date)}.`,
    `- Cosponsors: ${bill.cosponsor_count} cosponsors.`,
  ];
  if (bill.committees.length > 0) lines.push(`- Referred to: ${bill.committees.map((committee) => committee.name).join('; ')}.`);
  if (bill.latest_action) lines.push(`- Latest action, ${formatDate(bill.latest_action.date)}: ${bill.latest_action.text}`);
  const became = bill.actions.find((action) => action.text.includes('Public Law'));
  for (const law of bill.laws) lines.push(`- Became ${law.type} ${law.number}${became ? ` on ${formatDate(became.date)}` : ''}.`);
  return lines.join('\n');
}

/** The bill's answer, or undefined when the question names no bill. */
export async function answerBill(question: string, deps: BuiltinDeps): Promise<AnswerDraft | undefined> {
  const named = billNamed(question);
  if (!named) return undefined;
  const found = await deps.services.bills.search({ query: named, limit: 1 }).catch(() => undefined);
  const first = found?.bills[0];
  if (!first) {
    return {
      text: `I don't have ${named} in the bills this service tracks, so I can't say who sponsored it or what became of it; the tracked bills are listed at ${deps.config.baseUrl}/bills.`,
      sources: [`${deps.config.baseUrl}/api/v1/bills`],
    };
  }
  const bill = await deps.services.bills.get(first.bill_id);
  return { text: describe(bill), sources: [bill.url, bill.sources.congress_gov] };
}
