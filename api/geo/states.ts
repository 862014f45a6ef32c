// The 50 states and DC: codes, names and FIPS codes. The one list every capability validates
// against (an invalid state's error lists these 51 codes) and resolves user input with.

/** The 51 codes, sorted: the order error messages list them in. */
export const STATE_CODES = [
  'AK',
  'AL',
  'AR',
  'AZ',
  'CA',
  'CO',
  'CT',
  'DC',
  'DE',
  'FL',
  'GA',
  'HI',
  'IA',
  'ID',
  'IL',
  'IN',
  'KS',
  'KY',
  'LA',
  'MA',
  'MD',
  'ME',
  'MI',
  'MN',
  'MO',
  'MS',
  'MT',
  'NC',
  'ND',
  'NE',
  'NH',
  'NJ',
  'NM',
  'NV',
  'NY',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VA',
  'VT',
  'WA',
  'WI',
  'WV',
  'WY',
] as const;

export type StateCode = (typeof STATE_CODES)[number];

// Name and FIPS code per state; the Record type makes a missing or extra state a compile error.
const DETAILS: Record<StateCode, readonly [name: string, fips: string]> = {
  AL: ['Alabama', '01'],
  AK: ['Alaska', '02'],
  AZ: ['Arizona', '04'],
  AR: ['Arkansas', '05'],
  CA: ['California', '06'],
  CO: ['Colorado', '08'],
  CT: ['Connecticut', '09'],
  DE: ['Delaware', '10'],
  DC: ['District of Columbia', '11'],
  FL: ['Florida', '12'],
  GA: ['Georgia', '13'],
  HI: ['Hawaii', '15'],
  ID: ['Idaho', '16'],
  IL: ['Illinois', '17'],
  IN: ['Indiana', '18'],
  IA: ['Iowa', '19'],
  KS: ['Kansas', '20'],
  KY: ['Kentucky', '21'],
  LA: ['Louisiana', '22'],
  ME: ['Maine', '23'],
  MD: ['Maryland', '24'],
  MA: ['Massachusetts', '25'],
  MI: ['Michigan', '26'],
  MN: ['Minnesota', '27'],
  MS: ['Mississippi', '28'],
  MO: ['Missouri', '29'],
  MT: ['Montana', '30'],
  NE: ['Nebraska', '31'],
  NV: ['Nevada', '32'],
  NH: ['New Hampshire', '33'],
  NJ: ['New Jersey', '34'],
  NM: ['New Mexico', '35'],
  NY: ['New York', '36'],
  NC: ['North Carolina', '37'],
  ND: ['North Dakota', '38'],
  OH: ['Ohio', '39'],
  OK: ['Oklahoma', '40'],
  OR: ['Oregon', '41'],
  PA: ['Pennsylvania', '42'],
  RI: ['Rhode Island', '44'],
  SC: ['South Carolina', '45'],
  SD: ['South Dakota', '46'],
  TN: ['Tennessee', '47'],
  TX: ['Texas', '48'],
  UT: ['Utah', '49'],
  VT: ['Vermont', '50'],
  VA: ['Virginia', '51'],
  WA: ['Washington', '53'],
  WV: ['West Virginia', '54'],
  WI: ['Wisconsin', '55'],
  WY: ['Wyoming', '56'],
};

export interface StateInfo {
  code: StateCode;
  name: string;
  fips: string;
}

export const STATES: readonly StateInfo[] = STATE_CODES.map((code) => ({ code, name: DETAILS[code][0], fips: DETAILS[code][1] }));

const byKey = new Map<string, StateInfo>();
for (const state of STATES) {
  byKey.set(state.code.toLowerCase(), state);
  byKey.set(state.name.toLowerCase(), state);
}

/** The texts `findState` knows (lower case, one space between words): every code and name. */
export const STATE_LOOKUP_KEYS: readonly string[] = [...byKey.keys()];

/** Text as the lookups read it: trimmed, one space between words, ASCII letters in lower case (the only ones any name has). */
const lookupKey = (value: string) =>
  value
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** A state by 2-letter code or full name, case-insensitive, surrounding and repeated spaces ignored. */
export function findState(value: string): StateInfo | undefined {
  return byKey.get(lookupKey(value));
}

export function stateByFips(fips: string): StateInfo | undefined {
  return STATES.find((state) => state.fips === fips);
}

/** U.S. territories some publishers cover (FHFA and HUD loan limits): code → name. */
export const TERRITORIES = {
  PR: 'Puerto Rico',
  GU: 'Guam',
  VI: 'U.S. Virgin Islands',
  AS: 'American Samoa',
  MP: 'Northern Mariana Islands',
} as const;

export type TerritoryCode = keyof typeof TERRITORIES;
export const TERRITORY_CODES = Object.keys(TERRITORIES) as TerritoryCode[];

const territoryByKey = new Map<string, TerritoryCode>();
for (const code of TERRITORY_CODES) {
  territoryByKey.set(code.toLowerCase(), code);
  territoryByKey.set(TERRITORIES[code].toLowerCase(), code);
}
territoryByKey.set('us virgin islands', 'VI');
territoryByKey.set('virgin islands', 'VI');

/** The texts `findTerritory` knows (lower case, one space between words): every code, name and other name. */
export const TERRITORY_LOOKUP_KEYS: readonly string[] = [...territoryByKey.keys()];

/** A territory by code or name, case-insensitive. */
export function findTerritory(value: string): TerritoryCode | undefined {
  return territoryByKey.get(lookupKey(value));
}
