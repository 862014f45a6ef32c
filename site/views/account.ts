// The view of /account (see site/views/format.ts for why views exist): what the sign-in routes
// decided to show (api/access/account-routes.ts), the rate limits in words and the key cap.
import { buildConfig } from './addresses.ts';
import type { PageLocals } from '../../api/publications/render-capture.ts';
import type { AccountView } from '../../api/access/account-view.ts';
import { MAX_ACTIVE_KEYS } from '../../api/access/key-store.ts';
import { rateLimitPhrases } from '../../api/platform/rate-limit-text.ts';

export { MAX_ACTIVE_KEYS };

/** "2026-10-08 14:05 UTC", or a dash for never. */
export const keyTime = (value: Date | null): string =>
  value === null ? '—' : `${value.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** A support contact as a link: an email address as mailto, a URL as itself, anything else as text. */
export const contactHref = (contact: string): string | undefined =>
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contact) ? `mailto:${contact}` : /^https?:\/\//.test(contact) ? contact : undefined;

function titleOf(view: AccountView, status: number | undefined): string {
  if (view.kind === 'keys') return 'Your API keys';
  if (view.kind === 'error') return status === 403 ? 'Not allowed' : 'Something went wrong';
  return 'API keys';
}

export function accountView({ deps, account }: Partial<Pick<PageLocals, 'deps' | 'account'>>) {
  const view: AccountView = account?.view ?? { kind: 'support', contact: deps?.config.SUPPORT_CONTACT ?? null };
  return {
    view,
    status: account?.status ?? 200,
    title: titleOf(view, account?.status),
    limits: rateLimitPhrases(deps?.config ?? buildConfig()),
    active: view.kind === 'keys' ? view.keys.filter((key) => key.status === 'active').length : 0,
  };
}
