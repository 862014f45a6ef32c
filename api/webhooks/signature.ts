// Webhook signatures as the Standard Webhooks specification writes them (standardwebhooks.com), so a
// receiver can verify with any of its libraries: `webhook-id`, `webhook-timestamp` (Unix seconds) and
// `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the hook's own
// secret (`whsec_` and 32 random bytes in base64, shown once when the hook is created).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

const keyOf = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');

/** The `webhook-signature` header's value for one message. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** What a receiver does: whether any `v1,` signature in the header matches (constant time). */
export function verifySignature(secret: string, id: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(signature(secret, id, timestamp, body));
  return header.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
