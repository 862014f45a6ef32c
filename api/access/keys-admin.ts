// The support path's three commands (contract: `npm run keys -- create|list|revoke`), as one function
// over the key store. The CLI runs it against the database directly, or sends the same command to a
// running server's admin socket when the embedded database is held by that server.
import { z } from 'zod';
import type { KeyRecord, KeyStore } from './key-store.ts';

export const KeysCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('create'), email: z.string(), name: z.string().optional() }),
  z.object({ command: z.literal('list'), email: z.string() }),
  z.object({ command: z.literal('revoke'), prefix: z.string() }),
]);
export type KeysCommand = z.infer<typeof KeysCommandSchema>;

export interface SerializedKey {
  prefix: string;
  name: string;
  status: KeyRecord['status'];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export type KeysResult =
  | { command: 'create'; email: string; key: string; record: SerializedKey }
  | { command: 'list'; email: string; keys: SerializedKey[] }
  | { command: 'revoke'; record: SerializedKey };

function serialize(record: KeyRecord): SerializedKey {
  return {
    prefix: record.prefix,
    name: record.name,
    status: record.status,
    createdAt: record.createdAt.toISOString(),
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
  };
}

export async function runKeysCommand(store: KeyStore, command: KeysCommand): Promise<KeysResult> {
  switch (command.command) {
    case 'create': {
      const account = await store.findOrCreateAccountByEmail(command.email);
      const created = await store.createKey(account.id, command.name);
      return { command: 'create', email: account.email ?? command.email, key: created.key, record: serialize(created.record) };
    }
    case 'list': {
      const account = await store.findAccountByEmail(command.email);
      return { command: 'list', email: command.email, keys: account ? (await store.listKeys(account.id)).map(serialize) : [] };
    }
    case 'revoke':
      return { command: 'revoke', record: serialize(await store.revokeKey(command.prefix)) };
  }
}

/** Human-readable output of a result, as the CLI prints it. */
export function formatKeysResult(result: KeysResult): string {
  const line = (key: SerializedKey) =>
    `${key.prefix}…  ${key.status.padEnd(7)}  created ${key.createdAt}  last used ${key.lastUsedAt ?? 'never'}${key.name ? `  "${key.name}"` : ''}`;
  switch (result.command) {
    case 'create':
      return `Created a key for ${result.email}. It is shown only this once; give it to its owner now:\n\n  ${result.key}\n`;
    case 'list':
      return result.keys.length === 0 ? `No keys for ${result.email}.` : result.keys.map(line).join('\n');
    case 'revoke':
      return `Revoked ${result.record.prefix}… (requests with it now get 401).`;
  }
}
