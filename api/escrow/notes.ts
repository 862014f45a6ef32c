// What an escrow answer says about where its months come from: the notes a reader sees for a county
// override, a county checked against its collector or an unchecked one, and the sources listed
// beside them (the collector's pages, each once).
import type { EscrowSource } from './contract.ts';
import type { CountyCheck } from './county-checks.ts';
import { primarySource, type CheckedVerification, type Verification } from './verification.ts';

export const RESPA_SOURCE: EscrowSource = {
  title: '12 CFR 1024.17 (RESPA escrow accounts: aggregate analysis, 2-month cushion)',
  url: 'https://www.consumerfinance.gov/rules-policy/regulations/1024/17/',
};

/** The collector's page behind a county schedule, for the notes a reader sees. */
export function verificationNote(verification: Verification): string {
  if (verification.status === 'unchecked') return ` Not checked against the collector's own calendar. ${verification.reason}`;
  return ` Checked against ${checkedAgainst(verification)}.`;
}

/** "Publisher (url) for tax year 2025", or, for a standing rule, "Publisher (url), which gives the same dates every year (tax year 2026)". */
function checkedAgainst(verification: CheckedVerification): string {
  const source = primarySource(verification);
  return source.taxYear === verification.taxYear
    ? `${source.publisher} (${source.url}) for tax year ${verification.taxYear}`
    : `${source.publisher} (${source.url}), which gives the same dates every year (tax year ${verification.taxYear})`;
}

/** What the record says about a county that has no schedule of its own. */
export function checkNote(check: CountyCheck | undefined, label: string, stateName: string): string {
  if (!check || check.verification.status === 'unchecked') {
    return `No county-level schedule is recorded for ${label}; the ${stateName} schedule applies.`;
  }
  const where = checkedAgainst(check.verification);
  return check.result === 'agrees'
    ? `${check.county} (${check.fips}) collects on the ${stateName} schedule: ${check.finding} Checked against ${where}.`
    : `${check.county} (${check.fips}) has no single county calendar: ${check.finding} The ${stateName} schedule is used as an approximation; see ${where}.`;
}

export function verificationSources(verification: Verification): EscrowSource[] {
  if (verification.status === 'unchecked') return [];
  return verification.sources.map((source) => ({
    title: `${source.publisher}${source.taxYear ? `, tax year ${source.taxYear}` : ''}`,
    url: source.url,
  }));
}

/** One entry per address: a check often reads the page the schedule already cites. */
export function uniqueByUrl(sources: EscrowSource[]): EscrowSource[] {
  const seen = new Set<string>();
  return sources.filter((source) => source.url === null || (!seen.has(source.url) && Boolean(seen.add(source.url))));
}
