// /data/loan-limits/<YEAR>/<STATE>.json: for each year with county limits and each state or
// territory, the answer of GET /loan-limits?state=<STATE>&year=<YEAR> (every program, every county
// of the state). One file per state and year keeps the count near 500 while a county's figures stay
// one small download away.
import { DATASET } from '../loan-limits/answer.ts';
import { LoanLimitsQuerySchema } from '../loan-limits/contract.ts';
import { giveWay } from '../platform/give-way.ts';
import { JSON_TYPE, type Publication } from './types.ts';

export const loanLimitsPublication: Publication = {
  name: 'loan-limits',
  datasets: ['counties', DATASET.conforming, DATASET.fha],
  async *produce(services) {
    const limits = services.loanLimits;
    const { states, years } = await limits.coverage();
    for (const year of years) {
      for (const state of states) {
        await giveWay(); // a large state's answer takes a while to compose: requests go between states
        const body = await limits
          .answerJson(LoanLimitsQuerySchema.parse({ state, year }), { remember: false })
          .catch((error: { status?: number }) => {
            // A year no program has for this state is a 404 on REST: no file either.
            if (error.status === 404) return undefined;
            throw error;
          });
        if (body !== undefined)
          yield {
            path: `loan-limits/${year}/${state}.json`,
            body,
            contentType: JSON_TYPE,
            rest: `/loan-limits?state=${state}&year=${year}`,
          };
      }
    }
  },
};
