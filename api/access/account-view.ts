// What the /account page shows, decided by the sign-in routes (api/access/account-routes.ts) and
// drawn by the on-demand Astro page site/pages/account.astro, which receives it as Astro.locals.account:
// how to get a key without sign-in, the sign-in button, a signed-in account's keys, or an error.
import type { KeyRecord } from './key-store.ts';

export type AccountView =
  /** No identity provider configured: what a reader can do instead (and the support contact, if any). */
  | { kind: 'support'; contact: string | null }
  | { kind: 'sign-in' }
  | {
      kind: 'keys';
      email: string | null;
      csrfToken: string;
      keys: KeyRecord[];
      /** A key just created: shown this once. */
      newKey?: { key: string; prefix: string };
      message?: { text: string; error: boolean };
    }
  | { kind: 'error'; message: string };

export interface AccountPageLocals {
  status: number;
  view: AccountView;
}

/**
 * CSP for the account pages: the site's own stylesheet and favicon, forms only to this origin, no
 * framing and no script; stricter than the rest of the site, since the page shows keys.
 */
export const ACCOUNT_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
