// The JSON body parser, mounted only on the routes that take a body (/ask, MCP): a GET on a data
// route then pays nothing for it, and a body sent to a route without one gets that route's 405.
import express from 'express';

/** Bodies above this are refused with 413 (the largest real request, an /ask question, is ~2 kB). */
export const JSON_BODY_LIMIT = '32kb';

export const jsonBody = express.json({ limit: JSON_BODY_LIMIT });
