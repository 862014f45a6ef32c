// How a reader gets an API key on this install, in one sentence from the running configuration:
// sign-in at /account only where an identity provider is configured, else the support contact, else
// the operator. brand-facts.json, llms.txt and /ai-info-page say the same (the built files get the
// running sentence in place of the build's, as the rate limits do: build-origin.ts).
import type { Config } from '../config.ts';

export type KeysConfig = Pick<Config, 'baseUrl' | 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'SUPPORT_CONTACT'>;

export function keysPhrase(config: KeysConfig): string {
  if (config.OIDC_ISSUER !== undefined && config.OIDC_CLIENT_ID !== undefined)
    return `Free: sign in at ${config.baseUrl}/account (up to 3 keys per account).`;
  if (config.SUPPORT_CONTACT !== undefined)
    return `Free: this install has no sign-in; ask ${config.SUPPORT_CONTACT} for a key (up to 3 per account).`;
  return 'This install has no sign-in and names no contact for keys: its operator issues them. Every tool and endpoint but query_hmda works without one, at the lower limit.';
}
