// /data/escrow/<STATE>/<MM>.json for every state and closing month, and
// /data/escrow/<STATE>/<FIPS>/<MM>.json for every county whose tax calendar differs from its
// state's: the answers GET /escrow gives (the queries parsed by its contract, as the route parses them). The schedules are kept by hand, so they change only with
// a deploy: produced once per process.
import { EscrowQuerySchema } from '../escrow/contract.ts';
import { JSON_TYPE, type Publication } from './types.ts';

const MONTHS = Array.from({ length: 12 }, (_, index) => index + 1);
const twoDigits = (month: number) => String(month).padStart(2, '0');

export const escrowPublication: Publication = {
  name: 'escrow',
  datasets: [],
  async *produce(services) {
    const escrow = services.escrow;
    for (const state of escrow.stateCodes()) {
      for (const month of MONTHS) {
        yield {
          path: `escrow/${state}/${twoDigits(month)}.json`,
          body: escrow.answerJson(EscrowQuerySchema.parse({ state, closing_month: month })),
          contentType: JSON_TYPE,
          rest: `/escrow?state=${state}&closing_month=${month}`,
        };
      }
    }
    for (const { state, fips } of escrow.countyOverrides()) {
      for (const month of MONTHS) {
        yield {
          path: `escrow/${state}/${fips}/${twoDigits(month)}.json`,
          body: escrow.answerJson(EscrowQuerySchema.parse({ state, closing_month: month, county: fips })),
          contentType: JSON_TYPE,
          rest: `/escrow?state=${state}&closing_month=${month}&county=${fips}`,
        };
      }
    }
  },
};
