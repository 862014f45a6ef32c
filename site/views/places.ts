// The names of states and territories as the site's forms list them (see site/views/format.ts for why
// views exist), from the service's own tables (api/geo/states.ts).
import { STATES, TERRITORIES } from '../../api/geo/states.ts';

const NAMES: ReadonlyMap<string, string> = new Map([
  ...STATES.map((state) => [state.code, state.name] as const),
  ...Object.entries(TERRITORIES),
]);

/** "Ohio" for "OH", "Puerto Rico" for "PR"; an unknown code as it is. */
export const stateName = (code: string): string => NAMES.get(code) ?? code;
