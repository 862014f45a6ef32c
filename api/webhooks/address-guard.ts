// Where a webhook may be delivered: an HTTPS URL whose host resolves only to public addresses, so a
// hook cannot become a way into the operator's network (private, loopback, link-local, carrier NAT,
// multicast, documentation and other special ranges, in IPv4 and IPv6, IPv4-mapped included:
// ipaddr.js's classification). The operator may open private networks by CIDR
// (WEBHOOK_ALLOW_NETWORKS). The name is resolved once per delivery and the connection goes to the
// address that was checked, so a name that resolves elsewhere a moment later (DNS rebinding) changes
// nothing.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { BadRequestError } from '../platform/errors.ts';

/** A delivery target: the URL, and the checked address the connection goes to. */
export interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type AllowedNetworks = readonly string[];

/** Longest URL accepted for a hook. */
export const MAX_URL_LENGTH = 2048;

/** Why the URL cannot be a hook's, or undefined (its form only: the host is resolved later). */
export function urlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'give an absolute https:// URL, e.g. https://hooks.example.org/mortgage-data';
  }
  if (url.protocol !== 'https:') return 'webhooks are delivered over HTTPS only: give an https:// URL';
  if (url.username !== '' || url.password !== '') return 'the URL must not carry a user name or password; authenticate with the signature';
  if (url.hash !== '') return 'the URL must not have a #fragment';
  return undefined;
}

/** Whether an address is one hooks may reach: public, or inside a network the operator allowed. */
export function addressAllowed(address: string, allowed: AllowedNetworks): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  if (parsed.range() === 'unicast') return true;
  return allowed.some((network) => {
    const [base, bits] = ipaddr.parseCIDR(network);
    return base.kind() === parsed.kind() && parsed.match([base, bits] as never);
  });
}

/**
 * Resolves the hook's host once and checks every address it gives: one that may not be reached
 * refuses the hook (a name must not mix public and private addresses). Returns the first address.
 */
export async function resolveTarget(text: string, allowed: AllowedNetworks): Promise<Target> {
  const problem = urlProblem(text);
  if (problem !== undefined) throw new BadRequestError(`url: ${problem}.`);
  const url = new URL(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, order: 'ipv4first' });
    } catch {
      throw new BadRequestError(`url: the host ${host} does not resolve.`);
    }
  }
  const refused = addresses.filter((candidate) => !addressAllowed(candidate.address, allowed));
  if (addresses.length === 0 || refused.length > 0) {
    throw new BadRequestError(
      `url: ${host} resolves to ${refused.map((candidate) => candidate.address).join(', ') || 'nothing'}, a private, loopback or otherwise ` +
        'non-public address; webhooks reach public addresses only (the operator can allow a private network with WEBHOOK_ALLOW_NETWORKS).',
    );
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
