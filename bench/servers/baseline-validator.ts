// Baseline 3: the bare Express app of baseline 2 with express-openapi-validator as released (an
// unpatched copy, installed under an alias) in front, configured as the server configures its own
// (requests validated against openapi.yaml), answering from the same constant table. The server,
// with all its work, is to outrun this empty app behind the stock validator.
// Usage: baseline-validator.ts <bodies.json>
import './cpu-probe.js';
import { readFileSync } from 'node:fs';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator-released';
import { validatorOptions } from '../../server/app.js';
import { loadSpec } from '../../server/spec.js';

const bodies = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Record<string, string>;
const app = express();
app.disable('x-powered-by');
app.set('query parser', 'extended');
app.use(express.json());
app.use(OpenApiValidator.middleware(validatorOptions(loadSpec(), false)));
app.use((req, res) => {
  const body = bodies[`${req.method} ${req.originalUrl}`];
  res
    .status(body === undefined ? 404 : 200)
    .type('application/json')
    .send(body ?? '{}');
});
app.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
  res.status(err.status ?? 500).json({ error: String(err) });
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
});
