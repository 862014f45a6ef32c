// A fresh install reads places before its first sync has loaded the counties (the start's warm-up
// asks the catalogue for a place two seconds in). That read must not stay: once the counties are
// loaded, the next question finds them without a restart.
import { describe, expect, it } from 'vitest';
import { placesIn, type CountyLister } from '../../api/geo/gazetteer.ts';

const WAKE = { fips: '37183', state: 'NC', name: 'Wake County' };

/** A county list that is empty until `load()`, as the loan-limits service is before the first sync. */
function countyListerBeforeSync() {
  let loaded = false;
  const lister: CountyLister = { counties: async (state) => (loaded && state === 'NC' ? [WAKE] : []) };
  return { lister, load: () => (loaded = true) };
}

describe('the gazetteer on a fresh install', () => {
  it('finds a county on the first question after the counties are loaded, not only after a restart', async () => {
    const { lister, load } = countyListerBeforeSync();
    const context = { deps: { services: { loanLimits: lister } }, populations: new Map<string, number>() };
    const before = await placesIn('Loans originated in Wake County, North Carolina in 2023', context);
    expect(before.some((place) => place.kind === 'county')).toBe(false);
    load();
    const after = await placesIn('Loans originated in Wake County, North Carolina in 2023', context);
    expect(after).toContainEqual(expect.objectContaining({ kind: 'county', fips: '37183', state: 'NC' }));
  });
});
