// The API key format: `mds_<prefix>_<secret>`, 45 characters. The 8-character prefix is public (lists,
// revocation, database lookup); the 32-character secret carries ~190 bits of entropy, so a plain
// SHA-256 of the whole key is a safe thing to store, and is compared in constant time.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX_LENGTH = 8;
export const KEY_SECRET_LENGTH = 32;
export const KEY_LENGTH = 'mds_'.length + KEY_PREFIX_LENGTH + 1 + KEY_SECRET_LENGTH;
const KEY_PATTERN = new RegExp(`^mds_([0-9A-Za-z]{${KEY_PREFIX_LENGTH}})_[0-9A-Za-z]{${KEY_SECRET_LENGTH}}$`);
const PREFIX_PATTERN = new RegExp(`^(?:mds_)?([0-9A-Za-z]{${KEY_PREFIX_LENGTH}})$`);

function randomBase62(length: number): string {
  let out = '';
  // randomInt draws without modulo bias, from the CSPRNG.
  for (let index = 0; index < length; index += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export interface GeneratedKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateKey(): GeneratedKey {
  const prefix = randomBase62(KEY_PREFIX_LENGTH);
  const key = `mds_${prefix}_${randomBase62(KEY_SECRET_LENGTH)}`;
  return { key, prefix, hash: hashKey(key) };
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The prefix of a well-formed key, or undefined for anything else (never a database lookup). */
export function keyPrefixOf(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

/** Accepts `Ab12Cd34` or `mds_Ab12Cd34` (what lists show) and returns the bare prefix. */
export function parsePrefix(value: string): string | undefined {
  return PREFIX_PATTERN.exec(value.trim())?.[1];
}

/** Constant-time comparison of a presented key with a stored hash. */
export function keyMatchesHash(key: string, storedHash: string): boolean {
  const presented = Buffer.from(hashKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** How a key is shown once it has been created: the prefix only. */
export function displayPrefix(prefix: string): string {
  return `mds_${prefix}`;
}
