// Compressed variants of a static body, made once per file (at put(), or in the background after
// load()), never per request.
// Brotli at quality 5: on the built site (2.3 MB of HTML) it gave 713 kB in 0.2 s, against 610 kB in
// 5 s at quality 11, which would hold up every start; gzip at level 9 takes 0.1 s.
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { BoundedCache } from '../bounded-cache.ts';

export type Encoding = 'br' | 'gzip' | 'identity';

/** Bodies smaller than this gain nothing worth a Content-Encoding. */
const MIN_COMPRESS_BYTES = 256;

/** Types worth compressing (text and text-like); images and fonts are compressed already. */
export function isCompressible(contentType: string): boolean {
  return /^text\/|^application\/(?:json|xml|rss\+xml|atom\+xml|javascript|manifest\+json|ld\+json)|^image\/svg\+xml/.test(contentType);
}

export type Variants = { br?: Buffer; gzip?: Buffer };

/**
 * Variants already made, by the body's checksum: a body put again unchanged (the built site loaded
 * by a second app in the same process, as the tests do dozens of times; a data file regenerated as
 * it was) is not compressed again. Bounded by the compressed bytes it holds.
 */
const made = new BoundedCache<Variants>({
  maxBytes: 32 * 1024 * 1024,
  sizeOf: (variants) => (variants.br?.length ?? 0) + (variants.gzip?.length ?? 0) + 64,
});

/** Whether compressVariants() would try to compress `body` at all. */
export function worthCompressing(body: Buffer, contentType: string): boolean {
  return body.length >= MIN_COMPRESS_BYTES && isCompressible(contentType);
}

/** br and gzip variants of `body`, each kept only when it is smaller than the body itself. */
export function compressVariants(body: Buffer, contentType: string): Variants {
  if (!worthCompressing(body, contentType)) return {};
  const key = createHash('sha256').update(body).digest('base64url');
  const known = made.get(key);
  if (known) return known;
  const variants = compress(body);
  made.set(key, variants);
  return variants;
}

function compress(body: Buffer): Variants {
  const br = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gzip = zlib.gzipSync(body, { level: 9 });
  return { ...(br.length < body.length ? { br } : {}), ...(gzip.length < body.length ? { gzip } : {}) };
}

const choices = new Map<string, Encoding[]>();
const MAX_REMEMBERED_HEADERS = 200;

/**
 * The encodings an Accept-Encoding header accepts, best first (by q-value; br before gzip at equal
 * q), ending with identity. Parsed once per distinct header value: browsers send a handful.
 */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  if (header === undefined || header === '') return ['identity'];
  const known = choices.get(header);
  if (known) return known;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: 'br' | 'gzip'): number =>
    weights.get(name) ?? (name === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  const ranked = (['br', 'gzip'] as const)
    .map((name) => ({ name, q: weight(name) }))
    .filter(({ q }) => q > 0)
    .sort((a, b) => b.q - a.q)
    .map(({ name }): Encoding => name);
  const result: Encoding[] = [...ranked, 'identity'];
  if (choices.size >= MAX_REMEMBERED_HEADERS) choices.clear();
  choices.set(header, result);
  return result;
}
