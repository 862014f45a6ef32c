// A strong ETag named by the bytes themselves, for bodies held in memory and served as they are
// (published data files, pages rendered once per data version): the same bytes, the same tag, on
// every instance and after every restart.
import { createHash } from 'node:crypto';

export function contentEtag(bytes: Buffer | Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
}
