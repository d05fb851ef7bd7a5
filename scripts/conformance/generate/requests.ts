// Requests generated from openapi.yaml for every operation: valid ones (fast-check), ones that
// break exactly one keyword of one parameter or body field, and ones exactly on a bound. The
// conformance command and the in-process property suite both draw from here.
import fc from 'fast-check';
import { componentSchemaName, type JsonObject, resolveRef, type SpecParameter } from '../../../server/spec.js';
import type { Contract, ContractOperation } from '../contract.js';
import { arbitraryFor, semanticRules, wireJson } from './arbitraries.js';
import { bodyFields } from './body-fields.js';
import { parameterValues } from './parameter-values.js';
import { type Resolve, sampleOf, sampleString } from './samples.js';
import { REPLACES, violationsOf } from './violations.js';

export type Expectation =
  /** A valid request: one of these statuses. */
  | { kind: 'accepted'; statuses: number[] }
  /** A value exactly on a bound: valid, so anything the operation documents but a 400. */
  | { kind: 'boundary' }
  /**
   * One broken keyword: 400, naming this field in `metadata.errors`. `orNotFound`: a rule the
   * operation holds against the object as stored (a masked secret is refused unless it is the
   * stored secret's mask), so to an object the workspace does not have the 404 comes first.
   */
  | { kind: 'refused'; field: string; orNotFound?: boolean };

export interface ConformanceRequest {
  operationId: string;
  method: string;
  /** The path and query under the base URL, as sent (percent-encoded). */
  target: string;
  headers: Record<string, string>;
  /** JSON text, sent as it is. */
  body?: string;
  /** What the request tries, for a person. */
  label: string;
  expect: Expectation;
}

/** A value of a path parameter that names an object of the caller's workspace. */
export interface KnownValue {
  value: string;
  /** Component schemas to read in place of the spec's for a body sent to that object (a destination's type). */
  overrides?: Record<string, JsonObject>;
}

/** What the generator knows of the deployment: known path values, by operationId and parameter name. */
export type Fixture = Record<string, Record<string, KnownValue[]>>;

const UNKNOWN_QUERY_PARAMETER = 'conformance_unknown';

function resolverFor(contract: Contract, overrides: Record<string, JsonObject> = {}): Resolve {
  const resolve: Resolve = (schema) => {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const own = resolveRef(contract.spec, schema, ref) as JsonObject;
    const override = overrides[componentSchemaName(ref) ?? ''];
    return override ? resolve({ ...override, [REPLACES]: own }) : own;
  };
  return resolve;
}

interface Carrier {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Every path parameter names a known object. */
  known: boolean;
  overrides: Record<string, JsonObject>;
}

/** The smallest valid request of the operation, its path parameters the `choice`-th known value (or the last). */
function carrierOf(contract: Contract, operation: ContractOperation, fixture: Fixture, choice = 0): Carrier {
  const carrier: Carrier = { path: {}, query: {}, headers: {}, known: true, overrides: {} };
  const resolve = resolverFor(contract);
  for (const parameter of operation.parameters) {
    const values = fixture[operation.operationId]?.[parameter.name] ?? [];
    const known = values[Math.min(choice, values.length - 1)];
    if (parameter.in === 'path') {
      carrier.path[parameter.name] = encodeURIComponent(known?.value ?? sampleString(resolve(parameter.schema)));
      if (!known) carrier.known = false;
      Object.assign(carrier.overrides, known?.overrides);
    } else if (parameter.required) {
      const value = String(sampleOf(parameter.schema, resolve));
      if (parameter.in === 'query') carrier.query[parameter.name] = encodeURIComponent(value);
      if (parameter.in === 'header') carrier.headers[parameter.name] = value;
    }
  }
  return carrier;
}

function targetOf(operation: ContractOperation, path: Record<string, string>, query: Record<string, string>): string {
  const filled = operation.template.replace(/\{([^}]+)\}/g, (_match, name: string) => path[name] ?? '');
  const pairs = Object.entries(query).map(([name, text]) => `${encodeURIComponent(name)}=${text}`);
  return pairs.length > 0 ? `${filled}?${pairs.join('&')}` : filled;
}

/**
 * The operation's request with nothing but its path: the first known value of each path parameter
 * (a valid sample where none is known), `{}` as its body if it takes one, and no query.
 */
export function plainRequest(operation: ContractOperation, fixture: Fixture, label: string): ConformanceRequest {
  let known = true;
  const target = operation.template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = fixture[operation.operationId]?.[name]?.[0]?.value;
    if (value === undefined) known = false;
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    return encodeURIComponent(value ?? sampleString(parameter?.schema ?? {}));
  });
  const body = operation.bodySchema ? '{}' : undefined;
  return {
    operationId: operation.operationId,
    method: operation.method,
    target,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body !== undefined && { body }),
    label,
    expect: { kind: 'accepted', statuses: acceptedStatuses(operation, known) },
  };
}

/** What a valid request to these objects is answered: the operation's 2xx, or its 404 for an object nobody has. */
function acceptedStatuses(operation: ContractOperation, known: boolean): number[] {
  const statuses = [...operation.responses.keys()];
  if (!known && statuses.includes(404)) return [404];
  return statuses.filter((status) => status >= 200 && status < 300);
}

function jsonHeaders(operation: ContractOperation): Record<string, string> {
  return operation.bodySchema ? { 'content-type': 'application/json' } : {};
}

function parameterCases(contract: Contract, operation: ContractOperation, carrier: Carrier): ConformanceRequest[] {
  const resolve = resolverFor(contract);
  const body = operation.bodySchema ? JSON.stringify(sampleOf(operation.bodySchema, resolve)) : undefined;
  const request = (parameter: SpecParameter, text: string, label: string, expect: Expectation): ConformanceRequest => {
    const path = parameter.in === 'path' ? { ...carrier.path, [parameter.name]: text } : carrier.path;
    const query = parameter.in === 'query' ? { ...carrier.query, [parameter.name]: text } : carrier.query;
    const headers = parameter.in === 'header' ? { ...carrier.headers, [parameter.name]: text } : carrier.headers;
    return {
      operationId: operation.operationId,
      method: operation.method,
      target: targetOf(operation, path, query),
      headers: { ...jsonHeaders(operation), ...headers },
      ...(body !== undefined && { body }),
      label: `${parameter.in} ${parameter.name}: ${label}`,
      expect,
    };
  };
  const cases = operation.parameters.flatMap((parameter) => {
    const { violations, boundaries } = parameterValues(parameter, resolve);
    const field = `/${parameter.in}/${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`;
    return [
      ...violations.map((v) => request(parameter, v.text, v.label, { kind: 'refused', field })),
      ...boundaries.map((b) => request(parameter, b.text, b.label, { kind: 'boundary' })),
    ];
  });
  const unknown = {
    ...request(
      { name: UNKNOWN_QUERY_PARAMETER, in: 'query', schema: {}, pointer: '' },
      '1',
      'a query parameter the operation does not take',
      { kind: 'refused', field: `/query/${UNKNOWN_QUERY_PARAMETER}` },
    ),
    label: 'query: a parameter the operation does not take',
  };
  return [...cases, unknown];
}

function bodyCases(contract: Contract, operation: ContractOperation, carrier: Carrier): ConformanceRequest[] {
  if (!operation.bodySchema) return [];
  const resolve = resolverFor(contract, carrier.overrides);
  const request = (body: string | undefined, label: string, expect: Expectation): ConformanceRequest => ({
    operationId: operation.operationId,
    method: operation.method,
    target: targetOf(operation, carrier.path, carrier.query),
    headers: { ...jsonHeaders(operation), ...carrier.headers },
    ...(body !== undefined && { body }),
    label,
    expect,
  });
  const cases = bodyFields(operation.bodySchema, resolve).flatMap((field) => {
    const { violations, boundaries } = violationsOf(field.schema, field.role, field.sample, resolve);
    const where = `body${field.pointer}${field.alternative ? ` (${field.alternative})` : ''}`;
    return [
      ...violations.map((v) =>
        request(field.put(v.text), `${where}: ${v.label}`, {
          kind: 'refused',
          field: v.namesBody ? '/body' : `/body${field.pointer}${v.at ?? ''}`,
          ...(v.keyword === 'x-secret' && !carrier.known && { orNotFound: true }),
        }),
      ),
      ...boundaries.map((b) => request(field.put(b.text), `${where}: ${b.label}`, { kind: 'boundary' })),
    ];
  });
  return operation.bodyRequired
    ? [...cases, request(undefined, 'body: none, where one is required', { kind: 'refused', field: '/body' })]
    : cases;
}

/**
 * Every request that breaks one keyword of one parameter or body field, and every one exactly on a
 * bound. A body's fields are tried on every known object (the fields a destination takes depend on
 * its type), the parameters on the first.
 */
export function negativeRequests(contract: Contract, fixture: Fixture): ConformanceRequest[] {
  return contract.operations.flatMap((operation) => {
    const choices = Math.max(1, ...Object.values(fixture[operation.operationId] ?? {}).map((values) => values.length));
    const carriers = Array.from({ length: choices }, (_, choice) => carrierOf(contract, operation, fixture, choice));
    const [first] = carriers;
    return [
      ...(first ? parameterCases(contract, operation, first) : []),
      ...carriers.flatMap((carrier) => bodyCases(contract, operation, carrier)),
    ];
  });
}

function pathValueArbitrary(
  parameter: SpecParameter,
  known: KnownValue[],
): fc.Arbitrary<{ value: string; known?: KnownValue }> {
  const random = arbitraryFor(parameter.schema).map((value) => ({ value: String(value) }));
  if (known.length === 0) return random;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known).map((k) => ({ value: k.value, known: k })) },
    { weight: 1, arbitrary: random },
  );
}

/** Valid requests for one operation: known or random objects, every optional parameter or none, any valid body. */
export function validRequest(operation: ContractOperation, fixture: Fixture): fc.Arbitrary<ConformanceRequest> {
  const knownOf = (parameter: SpecParameter) => fixture[operation.operationId]?.[parameter.name] ?? [];
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  const path = fc.tuple(...pathParameters.map((p) => pathValueArbitrary(p, knownOf(p))));
  const query = fc.tuple(
    ...queryParameters.map((p) =>
      p.required ? arbitraryFor(p.schema) : fc.option(arbitraryFor(p.schema), { nil: undefined }),
    ),
  );
  return fc.tuple(path, query).chain(([pathValues, queryValues]) => {
    const overrides: Record<string, JsonObject> = Object.assign({}, ...pathValues.map((v) => v.known?.overrides ?? {}));
    const known = pathValues.every((v) => v.known !== undefined);
    const body: fc.Arbitrary<string | undefined> = operation.bodySchema
      ? arbitraryFor(operation.bodySchema, {
          secret: semanticRules.secret,
          overrides: Object.fromEntries(
            Object.entries(overrides).map(([name, schema]) => [
              name,
              arbitraryFor(schema, { secret: semanticRules.secret }),
            ]),
          ),
        }).map(wireJson)
      : fc.constant(undefined);
    return body.map((text): ConformanceRequest => {
      const pathTexts = Object.fromEntries(
        pathParameters.map((p, i) => [p.name, encodeURIComponent(pathValues[i]?.value ?? '')]),
      );
      const queryTexts: Record<string, string> = {};
      queryParameters.forEach((p, i) => {
        const value = queryValues[i];
        if (value !== undefined) queryTexts[p.name] = value === null ? '' : encodeURIComponent(String(value));
      });
      return {
        operationId: operation.operationId,
        method: operation.method,
        target: targetOf(operation, pathTexts, queryTexts),
        headers: jsonHeaders(operation),
        ...(text !== undefined && { body: text }),
        label: 'a valid request',
        expect: { kind: 'accepted', statuses: acceptedStatuses(operation, known) },
      };
    });
  });
}
