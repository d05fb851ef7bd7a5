// The constant answers of the benchmark's baselines and of the ladder's rungs below the handler:
// each request gets the body the real server gave it, looked up by method and URL in the table the
// run captured (bodies.json), or a 404 for a request the run did not capture.
import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';

export interface ConstantAnswer {
  status: number;
  body: string;
}

export type ConstantAnswers = (method: string | undefined, url: string | undefined) => ConstantAnswer;

export function readConstantAnswers(bodiesFile: string): ConstantAnswers {
  const bodies = JSON.parse(readFileSync(bodiesFile, 'utf8')) as Record<string, string>;
  return (method, url) => {
    const body = bodies[`${method} ${url}`];
    return body === undefined ? { status: 404, body: '{}' } : { status: 200, body };
  };
}

/** The last handler of an Express app that answers from the table. */
export function constantAnswerHandler(answers: ConstantAnswers): RequestHandler {
  return (req, res) => {
    const { status, body } = answers(req.method, req.originalUrl);
    res.status(status).type('application/json').send(body);
  };
}
