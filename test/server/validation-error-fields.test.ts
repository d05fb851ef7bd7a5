// The fields a 400 names, as the check step (server/validation/request-checks.ts) joins them: the
// request goes through the body parser and every check as in the server; in place of the
// validator, the test gives the field errors the validator would report. At most FIELD_LIMIT
// fields are looked for.
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FieldError, FieldValidationError } from '../../server/domain/field-errors.js';
import { jsonBody } from '../../server/http/request-body.js';
import { bindOperations } from '../../server/operations/bind.js';
import { operationHandlers } from '../../server/operations/handlers.js';
import { BODY_LIMIT_BYTES } from '../../server/request-pipeline.js';
import { createSpecAjv, nodeAt } from '../../server/spec.js';
import { matchOperation, OperationTable } from '../../server/validation/operation-match.js';
import { checkRequest } from '../../server/validation/request-checks.js';
import { type Listening, listenOnLoopback } from '../support/listen.js';
import { spec } from '../support/server.js';

let validatorErrors: FieldError[] = [];
const operations = bindOperations(spec, operationHandlers);
let listening: Listening;
let baseUrl: string;

const FIELD_LIMIT = 4;

beforeAll(async () => {
  const named: ErrorRequestHandler = (err, _req, res, _next) => {
    if (!(err instanceof FieldValidationError)) throw err;
    res.json(err.errors);
  };
  const app = express();
  app.set('query parser', 'extended');
  app.use(
    matchOperation(new OperationTable(spec, operations)),
    jsonBody(BODY_LIMIT_BYTES),
    checkRequest({
      spec,
      ajv: createSpecAjv(spec),
      operations,
      validate: async () => validatorErrors,
      storedObjectErrors: async () => [],
      fieldLimit: FIELD_LIMIT,
    }),
    ((_req, res) => {
      res.json([]);
    }) satisfies RequestHandler,
    named,
  );
  listening = await listenOnLoopback(app);
  baseUrl = listening.baseUrl;
});

afterAll(async () => {
  await listening.close();
});

async function fieldsNamed(
  method: string,
  path: string,
  reported: FieldError[],
  body?: unknown,
): Promise<FieldError[]> {
  validatorErrors = reported;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return (await response.json()) as FieldError[];
}

const destination = '/api/v1/observability/destinations/7019b9f2-c5e6-4f46-873e-55a17bb095a3';
const notDigits = { path: '/query/offset', message: 'must be an integer written in digits' };

describe('the fields a 400 names', () => {
  it('are the errors found before the validator first, without the validator repeating them, then the other parameters', async () => {
    const named = await fieldsNamed('GET', '/api/v1/presets/demo/versions?offset=abc&limit=101', [
      { path: '/query/offset', message: 'must be integer' },
      { path: '/query/limit', message: 'must be <= 100' },
    ]);
    expect(named).toEqual([notDigits, { path: '/query/limit', message: 'must be <= 100' }]);
  });

  it('are the parameters’ errors, then the body’s as the spec explains them', async () => {
    const named = await fieldsNamed(
      'PATCH',
      '/api/v1/observability/destinations/nope',
      [
        { path: '/body/enabled', message: 'must be boolean (validator)' },
        { path: '/path/id', message: 'must match format "uuid"' },
      ],
      { enabled: 'yes' },
    );
    expect(named).toEqual([
      { path: '/path/id', message: 'must match format "uuid"' },
      { path: '/body/enabled', message: 'must be boolean' },
    ]);
  });

  it(`look for the body's fields within what the errors found before and the parameters' leave of ${FIELD_LIMIT}`, async () => {
    const maxHashes = nodeAt(spec, '#/components/schemas/ApiKeyHashList/maxItems') as number;
    const body = {
      api_key_hashes: Array.from({ length: maxHashes + 1 }, () => 'x'),
      name: 5,
      enabled: 'yes',
      privacy_mode: 'no',
      broadcast_generation_cost: 1,
      broadcast_generation_identity: 2,
      broadcast_generation_request_context: 3,
    };
    const named = await fieldsNamed(
      'PATCH',
      '/api/v1/observability/destinations/nope',
      [
        { path: '/path/id', message: 'must match format "uuid"' },
        { path: '/body/name', message: 'must be string (validator)' },
      ],
      body,
    );
    // One found before (the size), one parameter, and the body's fields up to the limit, with one
    // more to say that there are more.
    expect(named.slice(0, 2)).toEqual([
      { path: '/body/api_key_hashes', message: `must NOT have more than ${maxHashes} items` },
      { path: '/path/id', message: 'must match format "uuid"' },
    ]);
    expect(named).toHaveLength(FIELD_LIMIT + 1);
  });

  it('explain an error about the body as a whole from the spec too', async () => {
    const named = await fieldsNamed('PATCH', destination, [{ path: '/body', message: 'is not an object' }], []);
    expect(named).toEqual([{ path: '/body', message: 'must be object' }]);
  });

  it('leave the body alone when the validator found no fault with it', async () => {
    const named = await fieldsNamed(
      'PATCH',
      '/api/v1/observability/destinations/nope',
      [{ path: '/path/id', message: 'must match format "uuid"' }],
      { enabled: 'yes' },
    );
    expect(named).toEqual([{ path: '/path/id', message: 'must match format "uuid"' }]);
  });

  it('keep the validator’s own body errors should the spec find nothing to explain', async () => {
    const named = await fieldsNamed('PATCH', destination, [{ path: '/body/name', message: 'is refused' }], {});
    expect(named).toEqual([{ path: '/body/name', message: 'is refused' }]);
  });
});
