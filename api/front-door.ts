// The server's request listener. A keyless GET that the answer lane holds a public answer for
// (api/platform/http/answer-lane.ts) is answered here: its own request id and access-log line
// (the same tracker as every request), the same rate limits, then the kept bytes. Every other
// request goes to the Express app, which keeps new public answers in the lane as it sends them.
import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import proxyaddr from 'proxy-addr';
import type { CoreDeps } from './platform/core-deps.ts';
import type { UsesServices } from './domain-services.ts';
import { countWithoutKey } from './access/middleware.ts';
import { writeKeptAnswer, type AnswerLane } from './platform/http/answer-lane.ts';
import { requestTracker } from './platform/http/request-context.ts';
import { toErrorResponse } from './platform/errors.ts';
import { writeApiError } from './platform/http/write-error.ts';

/** The request log, and admission for an answer served before Express (counted like any other). */
type FrontDoorDeps = Pick<CoreDeps, 'logger'> & UsesServices<'access'>;

export function frontDoor(app: Express, deps: FrontDoorDeps, lane: AnswerLane): RequestListener {
  const track = requestTracker(deps.logger);
  // The client's address as Express's req.ip gives it (the same trust-proxy setting).
  const trust = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  return (req, res) => {
    const answer = lane.lookup(req);
    if (answer === undefined) {
      app(req, res);
      return;
    }
    const requestId = track(req, res);
    countWithoutKey(
      deps,
      () => ({ kind: 'anonymous', ip: proxyaddr(req, trust) }),
      res,
      () => writeKeptAnswer(res, answer, requestId),
      (error) => {
        const { body, headers } = toErrorResponse(error);
        res.setHeader('X-Request-Id', requestId);
        writeApiError(res, body, headers);
      },
    );
  };
}
