// The one error path of the API: services throw these typed errors, and `sendError` maps any thrown
// value to the one error body, `{error, status}` (docs/api-conventions.md). Unexpected faults
// become a generic 500 so that no stack trace, SQL text or internal message ever reaches a client.

export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.headers = headers;
  }
}

/** 400: the request is malformed; the message says how to fix it. */
export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 401: a key is required or the key given is not valid. */
export class UnauthorizedError extends HttpError {
  constructor(message: string) {
    super(401, message, { 'WWW-Authenticate': 'Bearer realm="mortgage-data-service"' });
  }
}

/** 403: the caller is known but not allowed to do this. */
export class ForbiddenError extends HttpError {
  constructor(message: string) {
    super(403, message);
  }
}

/** 404: a valid request for something that does not exist (or whose data is not loaded). */
export class NotFoundError extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

/** 410: what was asked existed once but is no longer kept (e.g. a pinned dataset version pruned). */
export class GoneError extends HttpError {
  constructor(message: string) {
    super(410, message);
  }
}

/** 405: the path exists but not for this method. */
export class MethodNotAllowedError extends HttpError {
  constructor(method: string, allowed: string[]) {
    super(405, `Method ${method} is not allowed here; use ${allowed.join(' or ')}.`, {
      Allow: allowed.join(', '),
    });
  }
}

/** 409: the request conflicts with the current state (e.g. a fourth active key). */
export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

/** 413: the body is larger than the endpoint accepts. */
export class PayloadTooLargeError extends HttpError {
  constructor(message: string) {
    super(413, message);
  }
}

/** 429: over a rate limit; `retryAfterSeconds` becomes the Retry-After header. */
export class TooManyRequestsError extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** 503: a dependency (database, dataset not yet synced) is unavailable; try again later. */
export class ServiceUnavailableError extends HttpError {
  constructor(message: string, retryAfterSeconds = 30) {
    super(503, message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export interface ErrorBody {
  error: string;
  status: number;
}

/** Errors thrown by body parsers and other middleware carry `status`/`type` instead of our classes. */
interface MiddlewareError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  expose?: unknown;
}

const middlewareMessages: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON.',
  'entity.too.large': 'The request body is too large.',
  'encoding.unsupported': 'The request body encoding is not supported; send UTF-8.',
  'charset.unsupported': 'The request body charset is not supported; send UTF-8.',
};

/** Maps any thrown value to a status, a client-safe message and extra headers. */
export function toErrorResponse(error: unknown): { body: ErrorBody; headers: Record<string, string>; expected: boolean } {
  if (error instanceof HttpError) {
    return { body: { error: error.message, status: error.status }, headers: error.headers, expected: true };
  }
  const candidate = (error ?? {}) as MiddlewareError;
  const status = Number(candidate.status ?? candidate.statusCode);
  if (Number.isInteger(status) && status >= 400 && status < 500) {
    const known = typeof candidate.type === 'string' ? middlewareMessages[candidate.type] : undefined;
    const message = known ?? (status === 413 ? 'The request is too large.' : 'The request could not be processed.');
    return { body: { error: message, status }, headers: {}, expected: true };
  }
  return {
    body: { error: 'Internal server error. The fault has been logged; please try again later.', status: 500 },
    headers: {},
    expected: false,
  };
}
