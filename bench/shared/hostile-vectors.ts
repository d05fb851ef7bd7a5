// Hostile traffic: for each operation of the spec, a plain request, and the same request with one
// input that a client picks changed on every request (a header value or name, a parameter name or
// value, a token, a path value, a body key). The inputs come from the operation as the spec
// declares it. A plain request addresses the seeded objects by the name of its path parameters,
// and sends the first example of its request body; the few operations that need more (a write that
// really writes, a page of a given size) say so in a table by operationId.
import type { operations } from '../../generated/api.js';
import { apiBasePaths, type OpenApiDocument, type SpecOperation, specOperations } from '../../server/spec.js';

export interface HostileRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a seeded database holds that the plain requests address. */
export interface HostileTarget {
  managementKey: string;
  keyHash: string;
  destinationId: string;
  presetSlug: string;
}

export interface Vector {
  /** The input varied, for the report: `content-type parameter`, `query parameter name`... */
  input: string;
  operationId: string;
  /** Whether the requests carry the valid management key. */
  withKey: boolean;
  /** The i-th request: i is what varies. */
  request(i: number): HostileRequest;
}

interface PlainParts {
  pathParameters: Record<string, string>;
  query?: string;
  /** Bodies sent in turn, so that a plain write really writes. */
  bodies?: string[];
}

/** The seeded objects, by the name of the path parameter that addresses them. */
const pathValues = (t: HostileTarget): Record<string, string> => ({
  hash: t.keyHash,
  id: t.destinationId,
  slug: t.presetSlug,
});

const OWN_PLAIN: Partial<Record<keyof operations, Omit<PlainParts, 'pathParameters'>>> = {
  updateObservabilityDestination: { bodies: ['{"sampling_rate":0.5}', '{"sampling_rate":0.25}'] },
  listPresetVersions: { query: 'limit=50' },
};

function plainParts(entry: SpecOperation, target: HostileTarget): PlainParts {
  const own = OWN_PLAIN[entry.operation.operationId as keyof operations];
  const examples = entry.operation.requestBody?.content['application/json'] as
    | { examples?: Record<string, { value: unknown }> }
    | undefined;
  const example = Object.values(examples?.examples ?? {})[0];
  return {
    pathParameters: pathValues(target),
    ...(example && { bodies: [JSON.stringify(example.value)] }),
    ...own,
  };
}

/** A value of the i-th request that no two requests of a run share. */
const unique = (i: number): string => `${i.toString(36)}${process.pid.toString(36)}`;

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? ''));
}

/** The plain request of an operation, and the operation's parts a vector can vary. */
function plainRequest(spec: OpenApiDocument, entry: SpecOperation, target: HostileTarget) {
  const parts = plainParts(entry, target);
  const [basePath = ''] = apiBasePaths(spec);
  const at = (pathParameters: Record<string, string>, query = parts.query) =>
    `${basePath}${fill(entry.template, pathParameters)}${query ? `?${query}` : ''}`;
  const base = (i: number, withKey: boolean): HostileRequest => {
    const body = parts.bodies?.[i % parts.bodies.length];
    return {
      method: entry.method.toUpperCase(),
      path: at(parts.pathParameters),
      headers: {
        ...(withKey && { authorization: `Bearer ${target.managementKey}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body }),
    };
  };
  return { parts, at, base };
}

type Variation = (plain: HostileRequest, i: number) => HostileRequest;

const withHeaders =
  (headers: (i: number) => Record<string, string>): Variation =>
  (plain, i) => ({ ...plain, headers: { ...plain.headers, ...headers(i) } });

/** The variations every operation takes, whatever it declares. */
const COMMON: [string, Variation][] = [
  ['content-type parameter', withHeaders((i) => ({ 'content-type': `application/json; p=${unique(i)}` }))],
  [
    'content-type parameter name',
    withHeaders((i) => ({ 'content-type': `application/json; charset=utf-8; p${unique(i)}=1` })),
  ],
  ['content-type charset', withHeaders((i) => ({ 'content-type': `application/json; charset=x-${unique(i)}` }))],
  ['content-type media type', withHeaders((i) => ({ 'content-type': `application/x-${unique(i)}+json` }))],
  ['accept', withHeaders((i) => ({ accept: `application/x-${unique(i)}` }))],
  ['header name', withHeaders((i) => ({ [`x-h-${unique(i)}`]: '1' }))],
  ['x-request-id', withHeaders((i) => ({ 'x-request-id': `r-${unique(i)}` }))],
  ['x-forwarded-for', withHeaders((i) => ({ 'x-forwarded-for': `192.0.2.${i % 250}, 198.51.100.${(i >> 8) % 250}` }))],
  [
    'query parameter name',
    (plain, i) => ({ ...plain, path: `${plain.path}${plain.path.includes('?') ? '&' : '?'}q${unique(i)}=1` }),
  ],
];

/** A well-formed key that no database holds: the i-th differs from every other. */
const unknownKey = (i: number) => `sk-or-v1-${unique(i).padStart(64, '0')}`;

/** The variations of a request without a valid key: the token itself. */
const TOKENS: [string, Variation][] = [
  ['bearer token (well-formed, unknown)', withHeaders((i) => ({ authorization: `Bearer ${unknownKey(i)}` }))],
  ['bearer token (malformed)', withHeaders((i) => ({ authorization: `Bearer junk-${unique(i)}` }))],
];

/** The variations an operation takes from what it declares: its parameters and its body. */
function declaredVariations(entry: SpecOperation, at: (values: Record<string, string>, query?: string) => string) {
  const { parameters } = entry;
  const { requestBody } = entry.operation;
  const variations: [string, Variation][] = [];
  const pathNames = parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (pathNames.length > 0) {
    variations.push([
      'path value',
      (plain, i) => ({
        ...plain,
        path: at(Object.fromEntries(pathNames.map((name) => [name, `v${unique(i)}`])), plain.path.split('?')[1]),
      }),
    ]);
  }
  for (const parameter of parameters.filter((p) => p.in === 'query')) {
    variations.push([
      `query value (${parameter.name})`,
      (plain, i) => {
        const [path = '', query = ''] = plain.path.split('?');
        const params = new URLSearchParams(query);
        params.set(parameter.name, String(i));
        return { ...plain, path: `${path}?${params}` };
      },
    ]);
  }
  for (const parameter of parameters.filter((p) => p.in === 'header')) {
    variations.push([`header value (${parameter.name})`, withHeaders((i) => ({ [parameter.name]: `"${unique(i)}"` }))]);
  }
  if (requestBody) {
    variations.push([
      'body key',
      (plain, i) => ({
        ...plain,
        headers: { ...plain.headers, 'content-type': 'application/json' },
        body: `{"k${unique(i)}":1}`,
      }),
    ]);
  }
  return variations;
}

export interface OperationVectors {
  operationId: string;
  withKey: boolean;
  plain: (i: number) => HostileRequest;
  vectors: Vector[];
}

/** Every operation of the spec, with and without a key: its plain request and its vectors. */
export function hostileVectors(spec: OpenApiDocument, target: HostileTarget): OperationVectors[] {
  return specOperations(spec).flatMap((entry) => {
    const { operationId } = entry.operation;
    const { at, base } = plainRequest(spec, entry, target);
    const variations = [...COMMON, ...declaredVariations(entry, at)];
    return [true, false].map((withKey) => {
      const own = withKey ? variations : [...variations, ...TOKENS];
      return {
        operationId,
        withKey,
        plain: (i: number) => base(i, withKey),
        vectors: own.map(([input, vary]) => ({
          input,
          operationId,
          withKey,
          request: (i) => vary(base(i, withKey), i),
        })),
      };
    });
  });
}

/** Paths below the API prefix that no operation has: a 404 whoever asks. */
export function unknownPathVector(spec: OpenApiDocument): { plain: HostileRequest; vector: Vector } {
  const [basePath = ''] = apiBasePaths(spec);
  return {
    plain: { method: 'GET', path: `${basePath}/no-such-path`, headers: {} },
    vector: {
      input: 'unknown path',
      operationId: '(none)',
      withKey: false,
      request: (i) => ({ method: 'GET', path: `${basePath}/no-such-${unique(i)}`, headers: {} }),
    },
  };
}
