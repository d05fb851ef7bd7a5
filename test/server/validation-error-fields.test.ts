import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldError } from '../../server/domain/field-errors.js';
import { requestValidationErrors } from '../../server/http/bad-request.js';
import { matchOperation } from '../../server/http/operation-match.js';
import { jsonBody } from '../../server/http/request-body.js';
import { checkRequestShape } from '../../server/http/request-shape.js';
import { bindOperations } from '../../server/operations/bind.js';
import { operationHandlers } from '../../server/operations/index.js';
import { BODY_LIMIT_BYTES } from '../../server/request-pipeline.js';
import { createSpecAjv } from '../../server/spec.js';
import { type Listening, listenOnLoopback } from '../support/listen.js';
import { spec } from '../support/server.js';

// The request goes through the body parser and the shape check as in the server; then, in place of
// the validator, the test gives the field errors the validator would report.
let validatorErrors: FieldError[] = [];
const operations = bindOperations(spec, operationHandlers);
let listening: Listening;
let baseUrl: string;

beforeAll(async () => {
  const explain = requestValidationErrors(spec, createSpecAjv(spec));
  const app = express();
  app.use(matchOperation(spec, operations), jsonBody(BODY_LIMIT_BYTES), checkRequestShape(operations), (req, res) => {
    res.json(explain(req, { by: 'validator', errors: validatorErrors }));
  });
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
