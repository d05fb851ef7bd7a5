// Contract coverage: what the suite exercised of each operation of the spec. The in-process test
// servers record every exchange with an operation (its documented response as status and media
// type, and, for a 2xx, the oneOf alternatives its request body took and the enum values of its
// parameters), with the test that caused it; each test file writes its records when it ends, and
// scripts/contract-coverage/index.ts compares their union with what the spec documents.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { COVERAGE_DIR, type Exercised, oneOfAlternatives } from '../../../scripts/contract-coverage/items.js';
import { requestContext } from '../../../server/http/request-context.js';
import { queryStringOf } from '../../../server/http/request-head.js';
import { createSpecAjv, type OpenApiDocument } from '../../../server/spec.js';
import type { Operation } from '../../../server/validation/operation.js';

const records: Exercised[] = [];

function parameterValuesOf(
  operation: Operation,
  pathParameters: Record<string, string | undefined>,
  req: IncomingMessage,
  query: URLSearchParams,
): string[] {
  return operation.parameters.flatMap((parameter) => {
    if (!(parameter.schema as { enum?: unknown[] }).enum) return [];
    const value =
      parameter.in === 'query'
        ? query.get(parameter.name)
        : parameter.in === 'header'
          ? req.headers[parameter.name.toLowerCase()]
          : pathParameters[parameter.name];
    return typeof value === 'string' ? [`${parameter.in} ${parameter.name}=${value}`] : [];
  });
}

/**
 * A recorder of the exchanges of a test server on `spec`, for its `request` event: each is
 * recorded under the operation that the server matched it to (its request context).
 */
export function contractRecorder(spec: OpenApiDocument): (req: IncomingMessage, res: ServerResponse) => void {
  let ajv: Ajv2020 | undefined;
  return (req, res) => {
    // Read now: by the time the answer is written the test may be over, and Express's routers
    // change req.url on the way (the app, listening first, has kept the original).
    const test = expect.getState().currentTestName ?? '(outside a test)';
    // Any target the server was sent, as the server reads its query (a `//` path is no URL).
    const query = new URLSearchParams(queryStringOf((req as { originalUrl?: string }).originalUrl ?? req.url ?? ''));
    res.on('finish', () => {
      const { operation, route } = requestContext(req);
      if (!operation || !route) return;
      const operationId = operation.id;
      const mediaType =
        String(res.getHeader('content-type') ?? '')
          .split(';')[0]
          ?.trim() ?? '';
      const keys = [`response ${res.statusCode} ${mediaType}`.trim()];
      if (res.statusCode < 300) {
        const body = (req as IncomingMessage & { body?: unknown }).body;
        ajv ??= createSpecAjv(spec);
        for (const pointer of operation.body ? [operation.body.schemaPointer] : []) {
          if (body !== undefined) keys.push(...oneOfAlternatives(spec, pointer, ajv, body).map((a) => `body ${a}`));
        }
        keys.push(...parameterValuesOf(operation, route.pathParameters, req, query));
      }
      for (const key of keys) records.push({ operationId, key, test });
    });
  };
}

/** Writes this test file's records for scripts/contract-coverage/index.ts. */
export function flushContractRecords(): void {
  if (records.length === 0) return;
  mkdirSync(COVERAGE_DIR, { recursive: true });
  const file = join(COVERAGE_DIR, `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(records.splice(0)));
}
