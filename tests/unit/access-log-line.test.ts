// The access-log line: written straight to the destination createLogger was given (its batch when it
// has one), as the same JSON pino writes for the same record; any other logger goes through pino.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, logDestination, type Logger } from '../../api/platform/logger.ts';
import { requestTracker } from '../../api/platform/http/request-context.ts';

function sink() {
  const written: string[] = [];
  const batched: string[] = [];
  return {
    written,
    batched,
    stream: { write: (line: string) => void written.push(line), writeBatched: (line: string) => void batched.push(line) },
  };
}

/** Tracks one request through `logger` and finishes it with `status`. */
function finishRequest(logger: Logger, url: string, status = 200): string {
  const req = { method: 'GET', url, headers: { 'x-request-id': 'req-1' } } as unknown as IncomingMessage;
  const res = Object.assign(new EventEmitter(), { statusCode: status }) as unknown as ServerResponse;
  const id = requestTracker(logger)(req, res);
  res.emit('finish');
  return id;
}

const withoutTime = (line: string) => {
  const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
  expect(typeof time).toBe('string');
  return rest;
};

describe('access-log line', () => {
  it('goes to the batch of the destination createLogger was given, as the line pino writes for the record', () => {
    const { written, batched, stream } = sink();
    const logger = createLogger('info', stream);
    expect(logDestination(logger)).toBe(stream);
    expect(finishRequest(logger, '/api/v1/rates?api_key=secret&x="q"')).toBe('req-1');
    expect(written).toEqual([]);
    expect(batched).toHaveLength(1);
    const line = batched[0]!;
    expect(line.endsWith('}\n')).toBe(true);
    const fields = withoutTime(line);
    expect(fields).toMatchObject({
      url: '/api/v1/rates?api_key=[REDACTED]&x="q"',
      status: 200,
      requestId: 'req-1',
      method: 'GET',
      msg: 'request',
    });

    logger.info({ requestId: 'req-1', method: 'GET', url: fields.url, status: 200, durationMs: fields.durationMs }, 'request');
    expect(written).toHaveLength(1);
    expect(Object.keys(JSON.parse(line) as object)).toEqual(Object.keys(JSON.parse(written[0]!) as object));
    expect(withoutTime(written[0]!)).toEqual(fields);
  });

  it('reaches the destination from a child logger too', () => {
    const { batched, stream } = sink();
    const child = createLogger('info', stream).child({ service: 'rates' });
    expect(logDestination(child)).toBe(stream);
    finishRequest(child, '/api/v1/rates');
    expect(batched).toHaveLength(1);
  });

  it('goes through pino for a logger createLogger did not make, with the same fields', () => {
    const { written, batched, stream } = sink();
    const logger = pino({ level: 'info' }, stream);
    expect(logDestination(logger)).toBeUndefined();
    finishRequest(logger, '/api/v1/rates');
    expect(batched).toEqual([]);
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({ requestId: 'req-1', method: 'GET', url: '/api/v1/rates', status: 200, msg: 'request' });
  });
});
