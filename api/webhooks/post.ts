// One webhook delivery over HTTPS to the address the guard checked (./address-guard.ts): the TCP
// connection goes to that address, while TLS checks the certificate against the URL's host name (SNI
// too). No redirect is followed (a redirect could lead anywhere); any answer but 2xx is a failure.
import https from 'node:https';
import { isIP } from 'node:net';
import type { Target } from './address-guard.ts';

export interface PostOptions {
  /** Certificate authorities to trust instead of Node's (the system's plus WEBHOOK_CA_FILE's). */
  ca?: readonly string[];
  timeoutMs: number;
}

export interface PostOutcome {
  status: number;
}

export function postTo(
  target: Target,
  headers: Record<string, string>,
  body: string,
  { ca, timeoutMs }: PostOptions,
): Promise<PostOutcome> {
  const { url, address, family } = target;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: address,
        family,
        port: url.port === '' ? 443 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        // SNI and the certificate's name are the URL's host, not the address connected to.
        ...(isIP(host) === 0 ? { servername: host } : {}),
        headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
        ...(ca === undefined ? {} : { ca: [...ca] }),
        agent: false,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        // The answer's body is not read: only its status counts.
        response.resume();
        response.once('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.once('error', reject);
      },
    );
    request.once('error', (error: Error) =>
      reject(error.name === 'AbortError' || error.name === 'TimeoutError' ? new Error(`no answer within ${timeoutMs / 1000} s`) : error),
    );
    request.end(body);
  });
}
