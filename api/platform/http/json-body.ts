// The JSON body parser, mounted only on the routes that take a body (/ask, /hmda/sql, MCP): a GET on
// a data route then pays nothing for it, and a body sent to a route without one gets that route's
// 405. A body must say it is JSON (else 415), fit the limit (else 413) and nest at most
// MAX_JSON_DEPTH arrays and objects deep (else 400): the depth is counted on the raw bytes before
// they are parsed, so nothing after (validation, error messages) walks a hostile structure.
import express, { type RequestHandler } from 'express';
import { BadRequestError, HttpError } from '../errors.ts';

/** Bodies above this are refused with 413 (the largest real request, an /ask question, is ~2 kB). */
export const JSON_BODY_LIMIT = '32kb';
/** Arrays and objects inside each other; the deepest real request (an MCP tool call with filters) uses 5. */
export const MAX_JSON_DEPTH = 32;

/** 415: the body is not in a format the endpoint reads. */
export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}

/** The deepest nesting of arrays and objects in JSON text, counted without parsing it (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index += 1; // backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, (depth += 1));
    else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
  return deepest;
}

const parseJson = express.json({
  limit: JSON_BODY_LIMIT,
  // Runs on the raw bytes before JSON.parse; what it throws goes to the error handler as it is.
  verify: (_req, _res, buffer) => {
    if (jsonDepth(buffer.toString('utf8')) > MAX_JSON_DEPTH) {
      throw new BadRequestError(
        `The request body nests arrays and objects too deeply (more than ${MAX_JSON_DEPTH} levels); send a flatter JSON body.`,
      );
    }
  },
});

/** A request that carries a body (a length or chunks), as opposed to one with none at all. */
const hasBody = (req: Parameters<RequestHandler>[0]) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

export const jsonBody: RequestHandler = (req, res, next) => {
  if (hasBody(req) && !req.is(['application/json', '+json'])) {
    next(
      new UnsupportedMediaTypeError(
        `The request body must be JSON: send it with Content-Type: application/json (not ${req.headers['content-type'] ?? 'no Content-Type'}).`,
      ),
    );
    return;
  }
  parseJson(req, res, next);
};
