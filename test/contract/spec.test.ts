import { describe, expect, it } from 'vitest';
import { specOperations } from '../../server/spec.js';
import { componentSchema, describeErrors, findOperation, resolveRef, spec } from '../support/spec.js';

type JsonObject = Record<string, unknown>;

/** What the design decided of each operation, held against openapi.yaml: its statuses, the key kinds it takes, its success body. */
interface Design {
  statuses: string[];
  keyKinds: string[];
  successSchema: string;
}

const DESIGN: Record<string, Design> = {
  getKey: {
    statuses: ['200', '400', '401', '403', '404', '429', '500', '503'],
    keyKinds: ['management'],
    successSchema: 'ApiKeyResponse',
  },
  updateObservabilityDestination: {
    statuses: ['200', '400', '401', '403', '404', '412', '413', '415', '429', '500', '503'],
    keyKinds: ['management'],
    successSchema: 'ObservabilityDestinationResponse',
  },
  listPresetVersions: {
    statuses: ['200', '304', '400', '401', '404', '429', '500', '503'],
    keyKinds: ['management', 'standard'],
    successSchema: 'PresetVersionList',
  },
};

/** Every operation of the spec: one that the design table lacks fails each test below, by name. */
const operationIds = specOperations(spec).map(({ operation }) => operation.operationId);

function designOf(operationId: string): Design {
  const design = DESIGN[operationId];
  if (!design) throw new Error(`${operationId} has no line in DESIGN (test/contract/spec.test.ts)`);
  return design;
}

function responseOf(operationId: string, status: string): JsonObject {
  const response = findOperation(operationId).operation.responses[status];
  if (!response) throw new Error(`${operationId} has no ${status} response`);
  return resolveRef(response);
}

function jsonContent(response: JsonObject): {
  schema: JsonObject;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
} {
  const content = (response.content as Record<string, never>)['application/json'];
  if (!content) throw new Error('response has no application/json content');
  return content;
}

function examplesOf(content: ReturnType<typeof jsonContent>): unknown[] {
  return content.example !== undefined ? [content.example] : Object.values(content.examples ?? {}).map((e) => e.value);
}

describe('operations', () => {
  it('serves everything under /api/v1', () => {
    expect(spec.openapi).toMatch(/^3\.1\./);
    expect(spec.servers.map((s) => s.url)).toEqual(['/api/v1']);
  });

  it.each(operationIds)('%s documents exactly the statuses of the design', (operationId) => {
    const { operation } = findOperation(operationId);
    expect(Object.keys(operation.responses).sort()).toEqual([...designOf(operationId).statuses].sort());
  });

  it.each(operationIds)(
    '%s requires the bearer scheme and states the key kinds it accepts, one alternative each',
    (operationId) => {
      const { operation } = findOperation(operationId);
      expect(operation.security).toEqual(designOf(operationId).keyKinds.map((kind) => ({ bearerAuth: [kind] })));
      expect(spec.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    },
  );

  it('states on every operation, as security roles, key kinds that KeyKind defines', () => {
    const keyKinds = (spec.components.schemas.KeyKind as { enum: string[] }).enum;
    for (const { template: path, method, operation } of specOperations(spec)) {
      const requirements = operation.security ?? [];
      expect(requirements.length, `${method} ${path} states no key kind`).toBeGreaterThan(0);
      for (const requirement of requirements) {
        const roles = Object.values(requirement).flat();
        expect(roles, `${method} ${path}: one kind per requirement`).toHaveLength(1);
        expect(keyKinds, `${method} ${path}`).toContain(roles[0]);
      }
    }
  });

  it.each(operationIds)('%s answers every error in the envelope, with a matching example', (operationId) => {
    const validate = componentSchema('ErrorResponse');
    // Errors are 4xx and 5xx; a 304 has no content at all.
    const errors = Object.keys(findOperation(operationId).operation.responses).filter((s) => Number(s) >= 400);
    for (const status of errors) {
      const content = jsonContent(responseOf(operationId, status));
      expect(content.schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
      const examples = examplesOf(content);
      expect(examples.length, `${operationId} ${status} has an example`).toBeGreaterThan(0);
      for (const example of examples) {
        expect(validate(example), describeErrors(validate.errors)).toBe(true);
        expect((example as { error: { code: number } }).error.code).toBe(Number(status));
      }
    }
  });

  it('documents a 304 with no content, and the ETag and Cache-Control a 200 of its operation has', () => {
    const notModified = responseOf('listPresetVersions', '304');
    expect(notModified.content).toBeUndefined();
    expect(Object.keys(notModified.headers ?? {})).toEqual(
      expect.arrayContaining(Object.keys(responseOf('listPresetVersions', '200').headers ?? {})),
    );
  });

  it('documents the retry and authentication headers on the errors that need them', () => {
    for (const operationId of operationIds) {
      expect(Object.keys(responseOf(operationId, '401').headers ?? {})).toContain('WWW-Authenticate');
      expect(Object.keys(responseOf(operationId, '429').headers ?? {})).toContain('Retry-After');
      expect(Object.keys(responseOf(operationId, '503').headers ?? {})).toContain('Retry-After');
    }
  });

  it('makes the destination update conditional with ETag and If-Match', () => {
    const { operation } = findOperation('updateObservabilityDestination');
    expect(Object.keys(responseOf('updateObservabilityDestination', '200').headers ?? {})).toContain('ETag');
    expect(operation.parameters).toContainEqual(
      expect.objectContaining({ name: 'If-Match', in: 'header', required: false }),
    );
    expect(operation.requestBody?.required).toBe(true);
  });

  it.each(operationIds)('%s gives its success response an example that validates against its schema', (operationId) => {
    const schemaName = designOf(operationId).successSchema;
    const content = jsonContent(responseOf(operationId, '200'));
    expect(content.schema).toEqual({ $ref: `#/components/schemas/${schemaName}` });
    const validate = componentSchema(schemaName);
    const examples = examplesOf(content);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(validate(example), describeErrors(validate.errors)).toBe(true);
  });

  it('has no placeholder left in any example', () => {
    expect(JSON.stringify(spec.paths)).not.toMatch(/<[A-Za-z_]+>/);
    expect(JSON.stringify(spec.components.responses)).not.toMatch(/<[A-Za-z_]+>/);
  });
});

describe('error envelope', () => {
  const validate = componentSchema('ErrorResponse');
  const bodies: [string, unknown, boolean][] = [
    [
      'code, message and validation errors',
      { error: { code: 400, message: 'bad', metadata: { errors: [{ path: '/body/name', message: 'too short' }] } } },
      true,
    ],
    ['metadata null', { error: { code: 404, message: 'Not found.', metadata: null } }, true],
    ['metadata omitted', { error: { code: 500, message: 'Internal server error.' } }, true],
    ['no error object', { message: 'bad' }, false],
    ['code as a string', { error: { code: '400', message: 'bad' } }, false],
    ['code not an integer', { error: { code: 400.5, message: 'bad' } }, false],
    ['no message', { error: { code: 400 } }, false],
    ['metadata as a string', { error: { code: 400, message: 'bad', metadata: 'details' } }, false],
    [
      'a field error without a path',
      { error: { code: 400, message: 'bad', metadata: { errors: [{ message: 'x' }] } } },
      false,
    ],
  ];
  it.each(bodies)('%s', (_name, body, valid) => {
    expect(validate(body), describeErrors(validate.errors)).toBe(valid);
  });
});

describe('destination types', () => {
  const typeNames = (spec.components.schemas.DestinationType as { enum: string[] }).enum;
  const configSchemas = Object.entries(spec.components.schemas).filter(([, schema]) => 'x-destination-type' in schema);

  it('has exactly one config schema per destination type, each listed in DestinationConfig', () => {
    const declared = configSchemas.map(([, schema]) => schema['x-destination-type']);
    expect([...declared].sort()).toEqual([...typeNames].sort());
    const listed = (spec.components.schemas.DestinationConfig as { anyOf: { $ref: string }[] }).anyOf.map(
      (s) => s.$ref,
    );
    expect(listed.sort()).toEqual(configSchemas.map(([name]) => `#/components/schemas/${name}`).sort());
  });

  it('accepts in an update exactly the config keys some type has', () => {
    const keysOfTypes = new Set(configSchemas.flatMap(([, schema]) => Object.keys(schema.properties as JsonObject)));
    const updateKeys = Object.keys(
      (spec.components.schemas.DestinationConfigUpdate as { properties: JsonObject }).properties,
    );
    expect(updateKeys.sort()).toEqual([...keysOfTypes].sort());
  });

  it('requires every required key among its properties and accepts headers on every type', () => {
    for (const [name, schema] of configSchemas) {
      const properties = Object.keys(schema.properties as JsonObject);
      expect(properties, name).toContain('headers');
      for (const key of schema.required as string[]) expect(properties, name).toContain(key);
    }
  });
});
