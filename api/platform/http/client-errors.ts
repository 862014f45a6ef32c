// Requests Node's HTTP parser refuses before any handler runs (headers or URL too large, a malformed
// request line): Node's own answer has an empty body; this one carries the API's `{error, status}`
// body, so a client can read what to fix. Attached to the server with `server.on('clientError', …)`.
import type { Duplex } from 'node:stream';

interface ParserError extends Error {
  code?: string;
}

/** Status and message for a parser error code, as Node would choose the status. */
function describe(code: string | undefined): { status: number; reason: string; error: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      error: 'The request headers or URL are too large; send shorter ones (at most 16 KB together).',
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, reason: 'Request Timeout', error: 'The request was not received in time; send it again.' };
  return { status: 400, reason: 'Bad Request', error: 'The request is not valid HTTP/1.1.' };
}

export function answerClientError(error: ParserError, socket: Duplex): void {
  // A connection reset: nobody is left to read an answer. An answer already under way on the
  // connection: another one written now would corrupt it.
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy();
    return;
  }
  const { status, reason, error: message } = describe(error.code);
  const body = JSON.stringify({ error: message, status });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
  );
}
