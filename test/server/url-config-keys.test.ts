// The URL-valued config keys of a destination, read from openapi.yaml: every property of a
// `*Config` schema that is a `$ref` to HttpUrl. A PATCH that sets one of them to anything but an
// absolute http or https URL with a host is 400 in the documented envelope, naming the field, and
// leaves the destination as it was; a URL is stored.
import { describe, expect, it } from 'vitest';
import type { ConfigValues } from '../../server/domain/destination-config-rules.js';
import { FieldValidationError } from '../../server/domain/field-errors.js';
import { type JsonObject, nodeAt } from '../../server/spec.js';
import { readDestination } from '../support/destinations.js';
import { call, provision } from '../support/server.js';
import { componentSchema, spec } from '../support/spec.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const HTTP_URL = '#/components/schemas/HttpUrl';

interface ConfigSchema {
  type: string;
  properties: Record<string, JsonObject>;
  required: string[];
}

const configSchemas: ConfigSchema[] = Object.values(spec.components.schemas).flatMap((schema) => {
  const type = schema['x-destination-type'];
  if (typeof type !== 'string') return [];
  return [
    {
      type,
      properties: schema.properties as Record<string, JsonObject>,
      required: (schema.required as string[] | undefined) ?? [],
    },
  ];
});

const isUrl = (property: JsonObject | undefined) => property?.$ref === HTTP_URL;

/** Every (type, key) whose value is a URL, as the spec says it. */
const urlKeys = configSchemas.flatMap(({ type, properties }) =>
  Object.entries(properties)
    .filter(([, property]) => isUrl(property))
    .map(([key]) => ({ type, key })),
);

const VALID_URL = 'https://example.com/x';

/** Values that are not an absolute http or https URL with a host. */
const HOSTILE: readonly string[] = [
  'javascript:alert(1)',
  'not a url',
  'file:///etc/passwd',
  'ftp://x',
  'http://',
  '/relative/path',
  'relative/path',
  'https://',
  'http:///no-host',
  'HTTPS://EXAMPLE.COM',
  'https://example.com/with space',
  'data:text/html,<script>alert(1)</script>',
];

/** A config of the type with its required keys only, each valid: a URL where the spec wants one. */
function requiredConfig({ type, properties, required }: ConfigSchema): ConfigValues {
  return Object.fromEntries(
    required.map((key) => [
      key,
      isUrl(properties[key]) ? 'https://collector.example.com/v1' : `${type}-${key}-0123456789`,
    ]),
  );
}

const schemaOf = (type: string) => configSchemas.find((schema) => schema.type === type) as ConfigSchema;

const server = useTestServer();
const workspace = useWorkspace(server);

const patch = (id: string, body: unknown) =>
  call(server, 'PATCH', `/api/v1/observability/destinations/${id}`, { key: workspace.managementKey, body });

async function newDestination(type: string) {
  return provision.createDestination(
    server.store,
    { workspaceId: workspace.id, type, name: `${type} destination`, config: requiredConfig(schemaOf(type)) },
    server.clock.now(),
  );
}

describe('URL-valued config keys in openapi.yaml', () => {
  it('are found, among them those named as URLs by every type', () => {
    expect(urlKeys.length).toBeGreaterThan(0);
    expect(new Set(urlKeys.map(({ key }) => key))).toEqual(new Set(['baseUrl', 'url', 'endpoint', 'otlpEndpoint']));
  });

  it('are the same keys in DestinationConfigUpdate, each a $ref to HttpUrl there too', () => {
    const update = (
      nodeAt(spec, '#/components/schemas/DestinationConfigUpdate') as { properties: Record<string, JsonObject> }
    ).properties;
    const inUpdate = Object.entries(update)
      .filter(([, property]) => isUrl(property))
      .map(([key]) => key);
    expect(inUpdate.sort()).toEqual([...new Set(urlKeys.map(({ key }) => key))].sort());
  });

  it('are never a URL-looking key of another schema: no *Config property named like a URL escapes HttpUrl', () => {
    const named = configSchemas.flatMap(({ type, properties }) =>
      Object.keys(properties)
        .filter((key) => /url|endpoint/i.test(key) && !isUrl(properties[key]))
        .map((key) => `${type}.${key}`),
    );
    expect(named).toEqual([]);
  });

  it('HttpUrl takes absolute http and https URLs with a host and refuses each hostile value', () => {
    const validate = componentSchema('HttpUrl');
    for (const url of [VALID_URL, 'http://127.0.0.1:4318/v1/traces', 'https://u:p@h.example/a?b=c#d'])
      expect(validate(url), url).toBe(true);
    for (const value of HOSTILE) expect(validate(value), value).toBe(false);
  });
});

describe.each(urlKeys)('PATCH config.$key of a $type destination', ({ type, key }) => {
  it.each(HOSTILE)('%j: 400 naming /body/config/<key>, the destination unchanged', async (value) => {
    const destination = await newDestination(type);
    const before = await readDestination(server.store, workspace.id, destination.id);
    const response = await patch(destination.id, { config: { [key]: value } });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      error: {
        code: 400,
        message: expect.any(String),
        metadata: { errors: expect.arrayContaining([expect.objectContaining({ path: `/body/config/${key}` })]) },
      },
    });
    expect(await readDestination(server.store, workspace.id, destination.id)).toEqual(before);
  });

  it(`${VALID_URL}: 200, stored`, async () => {
    const destination = await newDestination(type);
    const response = await patch(destination.id, { config: { [key]: VALID_URL } });
    expect(response.status).toBe(200);
    expect(response.body.data.config[key]).toBe(VALID_URL);
    const stored = await readDestination(server.store, workspace.id, destination.id);
    expect(stored?.state.config[key]).toBe(VALID_URL);
  });
});

describe('provisioning a destination', () => {
  it.each(urlKeys)(
    'refuses a $type destination whose $key is not a URL, naming /config/$key',
    async ({ type, key }) => {
      const config = { ...requiredConfig(schemaOf(type)), [key]: 'javascript:alert(1)' };
      const made = provision.createDestination(
        server.store,
        { workspaceId: workspace.id, type, config },
        server.clock.now(),
      );
      await expect(made).rejects.toBeInstanceOf(FieldValidationError);
      await expect(made).rejects.toMatchObject({
        errors: expect.arrayContaining([expect.objectContaining({ path: `/config/${key}` })]),
      });
    },
  );
});
