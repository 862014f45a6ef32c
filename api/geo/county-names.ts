// County-name normalisation shared by sync, lookups and the contract vocabulary. Publishers spell
// the same county "LOS ANGELES", "LOSANGELES" or "LOSANGELESCOUNTY"; a match key removes that drift,
// and a base key also drops the kind suffix so "Los Angeles" finds Los Angeles County.

/** Upper-case letters and digits only; accents dropped; "Saint" spelled "St". */
export function matchKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/\bSAINTE\b/g, 'STE')
    .replace(/\bSAINT\b/g, 'ST')
    .replace(/[^A-Z0-9]/g, '');
}

// Longest first, so "CITYANDBOROUGH" is removed before "BOROUGH". "CITY" stays: Baltimore city and
// Baltimore County are different places.
const SUFFIXES = [
  'PLANNINGREGION',
  'CITYANDBOROUGH',
  'CENSUSAREA',
  'MUNICIPALITY',
  'MUNICIPIO',
  'BOROUGH',
  'COUNTY',
  'PARISH',
  'DISTRICT',
  'ISLAND',
];

/** The match key without its kind suffix: `LOSANGELESCOUNTY` → `LOSANGELES`. */
export function baseKey(key: string): string {
  for (const suffix of SUFFIXES) {
    if (key.length > suffix.length && key.endsWith(suffix)) return key.slice(0, -suffix.length);
  }
  return key;
}

const SMALL_WORDS = new Set(['of', 'and', 'the', 'de', 'la', 'del']);

/** `PRINCE OF WALES-HYDER CENSUS AREA` → `Prince of Wales-Hyder Census Area` (names no list has). */
export function titleCase(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .split(' ')
    .map((word, index) =>
      index > 0 && SMALL_WORDS.has(word)
        ? word
        : word.replace(/(^|[-.'(])([a-z])/g, (_m, lead: string, letter: string) => lead + letter.toUpperCase()),
    )
    .join(' ');
}

/** Edit distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_v, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0] as number;
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j] as number;
      previous[j] = Math.min(above + 1, (previous[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length] as number;
}

/**
 * New York City's boroughs by the names people use, and the county each one is (Census names).
 * No county elsewhere bears these names, so the mapping holds whatever state is asked.
 */
export const NEW_YORK_BOROUGHS: Readonly<Record<string, string>> = {
  BROOKLYN: 'Kings County',
  MANHATTAN: 'New York County',
  STATENISLAND: 'Richmond County',
  BRONX: 'Bronx County',
  THEBRONX: 'Bronx County',
  QUEENS: 'Queens County',
};

/** The county a borough name means ("Brooklyn" → "Kings County"), or undefined for other names. */
export function boroughCounty(name: string): string | undefined {
  const key = matchKey(name);
  return NEW_YORK_BOROUGHS[key] ?? NEW_YORK_BOROUGHS[key.replace(/BOROUGH$/, '').replace(/^BOROUGHOF/, '')];
}
