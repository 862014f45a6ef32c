import { describe, expect, it } from 'vitest';
import { BadRequestError, ServiceUnavailableError, TooManyRequestsError, toErrorResponse } from '../../api/platform/errors.ts';

describe('error mapping', () => {
  it('keeps the message and status of typed errors', () => {
    expect(toErrorResponse(new BadRequestError('state must be one of AK, AL')).body).toEqual({
      error: 'state must be one of AK, AL',
      status: 400,
    });
  });

  it('adds Retry-After to 429 and 503', () => {
    expect(toErrorResponse(new TooManyRequestsError('slow down', 12.2)).headers['Retry-After']).toBe('13');
    expect(toErrorResponse(new ServiceUnavailableError('loading', 30)).headers['Retry-After']).toBe('30');
  });

  it('hides the message of unexpected errors', () => {
    const response = toErrorResponse(new Error('relation "secret_table" does not exist at /srv/app.ts:12'));
    expect(response.body.status).toBe(500);
    expect(response.body.error).not.toMatch(/secret_table|app\.ts/);
    expect(response.expected).toBe(false);
  });

  it('maps body-parser errors to a client message', () => {
    expect(toErrorResponse({ status: 400, type: 'entity.parse.failed', message: 'Unexpected token } in JSON at 7' }).body).toEqual({
      error: 'The request body is not valid JSON.',
      status: 400,
    });
  });
});
