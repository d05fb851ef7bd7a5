// A preset slug is bounded by the slug path parameter of listPresetVersions, read from the spec
// as it is: wherever that operation stands and whatever parameters come before the slug.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FieldValidationError } from '../../server/domain/field-errors.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { Provisioning } from '../../server/provisioning/provision.js';
import { loadSpec, type OpenApiDocument, type OpenApiOperation, type OpenApiParameter } from '../../server/spec.js';
import { openStore, type Store } from '../../server/store/store.js';
import { createTestDatabase } from '../support/database.js';

const NOW = new Date('2026-11-18T12:00:00.000Z');
const LIST_PATH = '/presets/{slug}/versions';

let store: Store;
let workspaceId: string;

beforeAll(async () => {
  store = await openStore((await createTestDatabase()).url, createSecretBox(randomBytes(32)));
  workspaceId = (await store.workspaces.create('Presets', NOW)).id;
});

afterAll(async () => {
  await store.close();
});

/** addPresetVersion against the spec as `edit` leaves it. */
function addPresetVersionUnder(edit: (spec: OpenApiDocument) => void): Provisioning['addPresetVersion'] {
  const spec = loadSpec();
  edit(spec);
  const provisioning = new Provisioning(spec);
  return (store, input, now) => provisioning.addPresetVersion(store, input, now);
}

async function refusal(attempt: Promise<unknown>): Promise<unknown> {
  const error = await attempt.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(Error);
  return error instanceof FieldValidationError ? error.errors : (error as Error).message;
}

function listOperation(spec: OpenApiDocument): OpenApiOperation {
  const operation = spec.paths[LIST_PATH]?.get;
  if (!operation) throw new Error(`openapi.yaml has no GET ${LIST_PATH}`);
  return operation;
}

/**
 * listPresetVersions under /workspaces/{workspace}/presets/{slug}/versions, its slug bounded to 20
 * characters and declared after its query parameters and a workspace id; before it, another
 * operation whose slug is bounded to 5.
 */
function movedListOperation(spec: OpenApiDocument): void {
  const list = listOperation(spec);
  // This spec writes its parameters in place: no $ref to follow.
  const parameters = (list.parameters ?? []) as OpenApiParameter[];
  const slug = parameters.find((p) => p.name === 'slug');
  if (!slug) throw new Error('listPresetVersions has no slug parameter');
  slug.schema = { ...slug.schema, maxLength: 20 };
  list.parameters = [
    ...parameters.filter((p) => p !== slug),
    { name: 'workspace', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
    slug,
  ];
  const { [LIST_PATH]: listItem = {}, ...others } = spec.paths;
  spec.paths = {
    ...others,
    '/presets/{slug}': {
      get: { ...list, operationId: 'getPreset', parameters: [{ ...slug, schema: { type: 'string', maxLength: 5 } }] },
    },
    '/workspaces/{workspace}/presets/{slug}/versions': listItem,
  };
}

describe('the slug of a preset version', () => {
  it('is bounded by the slug parameter of listPresetVersions, wherever the spec declares it', async () => {
    const addPresetVersion = addPresetVersionUnder(movedListOperation);
    const version = { workspaceId, config: { model: 'openai/gpt-4o-mini' }, creatorId: 'user_1' };
    const added = await addPresetVersion(store, { ...version, slug: 'a'.repeat(20) }, NOW);
    expect(added.version).toBe(1);
    expect(await refusal(addPresetVersion(store, { ...version, slug: 'a'.repeat(21) }, NOW))).toEqual([
      { path: '/slug', message: 'must NOT have more than 20 characters' },
    ]);
  });

  it('is bounded by the slug in the path, not by a query parameter of the same name', async () => {
    const addPresetVersion = addPresetVersionUnder((spec) => {
      const list = listOperation(spec);
      const query: OpenApiParameter = { name: 'slug', in: 'query', schema: { type: 'string', maxLength: 5 } };
      list.parameters = [query, ...((list.parameters ?? []) as OpenApiParameter[])];
    });
    const version = { workspaceId, config: { model: 'openai/gpt-4o-mini' }, creatorId: 'user_1' };
    const added = await addPresetVersion(store, { ...version, slug: 'longer-than-five' }, NOW);
    expect(added.version).toBe(1);
  });

  it('cannot be checked against a spec whose listPresetVersions has no slug parameter', async () => {
    const addPresetVersion = addPresetVersionUnder((spec) => {
      const list = listOperation(spec);
      list.parameters = ((list.parameters ?? []) as OpenApiParameter[]).filter((p) => p.name !== 'slug');
    });
    const attempt = addPresetVersion(
      store,
      { workspaceId, slug: 'support-agent', config: { model: 'openai/gpt-4o-mini' }, creatorId: 'user_1' },
      NOW,
    );
    expect(await refusal(attempt)).toBe('openapi.yaml has no slug parameter on listPresetVersions');
  });
});
