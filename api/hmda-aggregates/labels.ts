// Labels of the aggregate dimensions and codes (FFIEC Public LAR data dictionary), the rate
// definitions every answer states, and the places the service accepts (states, DC, territories).
import { ACTION_TAKEN, LIEN_STATUS, LOAN_PURPOSE, LOAN_TYPE } from '../hmda/codes.ts';
import { STATES } from '../geo/states.ts';

const CONSTRUCTION_METHOD: Record<number, string> = { 1: 'Site-built', 2: 'Manufactured home' };

const CODE_LABELS: Record<string, Record<number, string>> = {
  actionTaken: ACTION_TAKEN,
  loanType: LOAN_TYPE,
  loanPurpose: LOAN_PURPOSE,
  lienStatus: LIEN_STATUS,
  constructionMethod: CONSTRUCTION_METHOD,
};

/** The label of a code: the dictionary's for coded dimensions; the file's own text otherwise. */
export function codeLabel(dimension: string, code: string): string {
  const labels = CODE_LABELS[dimension];
  if (labels && /^\d+$/.test(code)) return labels[Number(code)] ?? code;
  if (dimension === 'age' && code === '8888') return 'Not applicable (e.g. the applicant is not a natural person)';
  if (dimension === 'totalUnits') return `${code} unit${code === '1' ? '' : 's'}`;
  return code;
}

export const DEFINITIONS = {
  approval_rate:
    'Approval rate = (loans originated + applications approved but not accepted) / (originated + approved but not accepted + denied), action-taken codes 1, 2 and 3; withdrawn, incomplete, purchased loans and preapproval requests are excluded.',
  denial_rate:
    'Denial rate = applications denied / (originated + approved but not accepted + denied), the same denominator as the approval rate.',
  shares:
    'Shares are of all HMDA records (applications, originations and purchased loans) for the geography and year, as the HMDA Maps aggregates count them.',
  nation:
    'National figures are the sum of every state-level key of the official aggregates: the 50 states, DC, the territories (PR, GU, VI and, in some years, AS, MP, MH) and records whose property state was not reported (NA). ' +
    "From 2020 on that is the published national record count; the Data Browser's 2018 and 2019 counts also hold records filed under a blank state key with no breakdown (1,961 in 2018, 21 in 2019), which the sums leave out.",
} as const;

/** Approval and denial rates per DEFINITIONS from action-taken counts; null without any decision. */
export function decisionRates(actions: Record<string, number>): { approval: number | null; denial: number | null } {
  const approved = (actions['1'] ?? 0) + (actions['2'] ?? 0);
  const denied = actions['3'] ?? 0;
  const decided = approved + denied;
  if (decided === 0) return { approval: null, denial: null };
  return { approval: (approved / decided) * 100, denial: (denied / decided) * 100 };
}

export const TERRITORIES: Record<string, string> = {
  PR: 'Puerto Rico',
  GU: 'Guam',
  VI: 'U.S. Virgin Islands',
  AS: 'American Samoa',
  MP: 'Northern Mariana Islands',
  MH: 'Marshall Islands',
};

const PLACE_NAMES = new Map<string, string>([...STATES.map((state) => [state.code, state.name] as const), ...Object.entries(TERRITORIES)]);
export const PLACE_CODES = [...PLACE_NAMES.keys()];

export const placeName = (code: string): string | undefined => PLACE_NAMES.get(code);

/** A 2-letter code or a full name (any case) → the code; undefined when unknown. */
export function placeCode(input: string): string | undefined {
  const trimmed = input.trim();
  const upper = trimmed.toUpperCase();
  if (PLACE_NAMES.has(upper)) return upper;
  const lower = trimmed.toLowerCase();
  for (const [code, name] of PLACE_NAMES) if (name.toLowerCase() === lower) return code;
  return undefined;
}

/** State FIPS → code, for naming a county's state. */
export const STATE_BY_FIPS = new Map<string, string>([
  ...STATES.map((state) => [state.fips, state.code] as const),
  ['72', 'PR'],
  ['66', 'GU'],
  ['78', 'VI'],
  ['60', 'AS'],
  ['69', 'MP'],
]);
