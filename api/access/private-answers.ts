// Answers to a request that carried a key are the key holder's: a shared cache (a CDN, a company
// proxy) must not keep one and hand it to another client, keyless or not. Routes mark their data
// answers public (DATA_CACHE_CONTROL) without knowing who asked; for a keyed request this turns
// that `public` into `private` as the header is set, in one place, whichever route sets it.
import type { ServerResponse } from 'node:http';

/** Cache-Control as it should go to a key holder: `public` becomes `private`; other directives stay. */
export function privateCacheControl(value: string): string {
  return /\bpublic\b/i.test(value) ? value.replace(/\bpublic\b/i, 'private') : value;
}

/** From now on, a Cache-Control set on `res` (by setHeader, res.set or res.header) is kept private. */
export function keepAnswerPrivate(res: ServerResponse): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) =>
    setHeader(name, name.toLowerCase() === 'cache-control' && typeof value === 'string' ? privateCacheControl(value) : value);
}
