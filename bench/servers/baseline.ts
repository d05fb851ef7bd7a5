// The baselines the server is measured against, each answering every request from the table of
// the real server's answers that the run captured (constant-answers.ts):
//   raw        a node:http server;
//   express    a bare Express 5 app (the ladder's first rung too);
//   validator  that app behind express-openapi-validator as released (an unpatched copy installed
//              under an alias), configured as the server configures its own: the server, with all
//              its work, is to outrun this empty app behind the stock validator.
// Usage: baseline.ts <raw|express|validator> <bodies.json>
import './cpu-probe.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { constantAnswerHandler, readConstantAnswers } from './constant-answers.js';

const KINDS = ['raw', 'express', 'validator'] as const;
const [kind = '', bodiesFile = ''] = process.argv.slice(2);
if (!KINDS.some((known) => known === kind)) throw new Error(`unknown baseline ${kind}; one of ${KINDS.join(', ')}`);
const answer = readConstantAnswers(bodiesFile);

function rawServer(): Server {
  return createServer((req, res) => {
    const { status, body } = answer(req.method, req.url);
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(body);
    });
  });
}

async function expressServer(withValidator: boolean): Promise<Server> {
  const app = express();
  app.disable('x-powered-by');
  if (withValidator) {
    // Loaded by this baseline only: the others hold no spec and no validator.
    const [validator, { validatorOptions }, { loadSpec }] = await Promise.all([
      import('express-openapi-validator-released'),
      import('../../server/validation/validator.js'),
      import('../../server/spec.js'),
    ]);
    app.set('query parser', 'extended');
    app.use(express.json());
    app.use(validator.middleware(validatorOptions(loadSpec(), false)));
  }
  app.use(constantAnswerHandler(answer));
  app.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(err.status ?? 500).json({ error: String(err) });
  });
  return createServer(app);
}

const server = kind === 'raw' ? rawServer() : await expressServer(kind === 'validator');
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
