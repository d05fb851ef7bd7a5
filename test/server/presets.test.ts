import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONFIG_JSON_LENGTH, PAGE_CHARACTER_BUDGET } from '../../server/domain/preset-versions.js';
import { escapePointer, nodeAt, specOperations } from '../../server/spec.js';
import { boundaryCases, toQueryValue } from '../support/boundaries.js';
import { call, provision } from '../support/server.js';
import { findOperation, resolveRef, spec } from '../support/spec.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const SLUG = 'support-agent';
const VERSION_COUNT = 7;
const server = useTestServer();
const workspace = useWorkspace(server);
const otherWorkspace = useWorkspace(server, 'Other workspace');

beforeAll(async () => {
  const now = server.clock.now();
  for (let i = 1; i <= VERSION_COUNT; i++) {
    await provision.addPresetVersion(
      server.store,
      {
        workspaceId: workspace.id,
        slug: SLUG,
        config: { model: `openai/gpt-4o-mini`, temperature: i / 10 },
        systemPrompt: i === 2 ? null : `Prompt ${i}`,
        creatorId: 'user_1',
      },
      now,
    );
  }
  await provision.addPresetVersion(
    server.store,
    { workspaceId: otherWorkspace.id, slug: 'private-preset', config: { model: 'x/y' }, creatorId: 'user_2' },
    now,
  );
});

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

const list = (query = '', key = workspace.standardKey, slug = SLUG) =>
  call(server, 'GET', `/api/v1/presets/${slug}/versions${query}`, { key });

describe('listPresetVersions', () => {
  it('lists every version in ascending order with the defaults (offset 0, limit 50)', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body.total_count).toBe(VERSION_COUNT);
    expect(response.body.data.map((v: { version: number }) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const [first, second] = response.body.data;
    expect(first).toMatchObject({
      version: 1,
      config: { model: 'openai/gpt-4o-mini', temperature: 0.1 },
      system_prompt: 'Prompt 1',
      creator_id: 'user_1',
    });
    expect(second.system_prompt).toBeNull();
    expect(new Set(response.body.data.map((v: { preset_id: string }) => v.preset_id)).size).toBe(1);
    expect(first.created_at).toBe('2026-11-18T12:00:00.000Z');
  });

  it('pages with offset and limit, and total_count stays the number of versions', async () => {
    const page = await list('?offset=2&limit=3');
    expect(page.status).toBe(200);
    expect(page.body.data.map((v: { version: number }) => v.version)).toEqual([3, 4, 5]);
    expect(page.body.total_count).toBe(VERSION_COUNT);
    const last = await list('?offset=6&limit=3');
    expect(last.body.data.map((v: { version: number }) => v.version)).toEqual([7]);
    const beyond = await list('?offset=100');
    expect(beyond.body).toEqual({ data: [], total_count: VERSION_COUNT });
  });

  it('reads an empty offset as null, which means 0', async () => {
    const response = await list('?offset=&limit=2');
    expect(response.status).toBe(200);
    expect(response.body.data.map((v: { version: number }) => v.version)).toEqual([1, 2]);
  });

  it('accepts management keys as well as standard keys', async () => {
    expect((await list('', workspace.managementKey)).status).toBe(200);
  });

  it('answers 404 for an unknown slug and for a slug of another workspace', async () => {
    const unknown = await list('', workspace.standardKey, 'no-such-preset');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 404 });
    const foreign = await list('', workspace.standardKey, 'private-preset');
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect((await list('', otherWorkspace.standardKey, 'private-preset')).status).toBe(200);
  });

  it('answers 401 without a valid key', async () => {
    const response = await call(server, 'GET', `/api/v1/presets/${SLUG}/versions`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('rejects unknown and repeated query parameters with 400 naming them', async () => {
    const unknown = await list('?page=2');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.metadata.errors).toContainEqual(expect.objectContaining({ path: '/query/page' }));
    const repeated = await list('?limit=1&limit=2');
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.metadata.errors.map((e: { path: string }) => e.path)).toContain('/query/limit');
  });

  it.each(['limit=%205', 'limit=1e2', 'limit=5.0', 'offset=0x10', 'offset=%2B1'])(
    'rejects the integer %s written other than in digits (the validator alone took it)',
    async (query) => {
      const response = await list(`?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error.metadata.errors[0].path).toBe(`/query/${query.split('=')[0]}`);
    },
  );

  // A string of digits past the range of a double reads as Infinity: the validator's coercion
  // passed it (an Ajv bug, patched: patches/ajv+8.20.0+002+finite-number-coercion.patch), and the
  // store was asked for Infinity versions (a 500 on SQLite, an empty page or the first one else).
  describe('numbers past the range of the parameter, however they are written', () => {
    const digits400 = `1${'0'.repeat(400)}`;
    // The fields that metadata.errors names (a value past a bound may fail its maximum and its format alike).
    const failingFields = (response: Awaited<ReturnType<typeof list>>): string[] =>
      [...new Set<string>(response.body.error.metadata.errors.map((e: { path: string }) => e.path))].sort();
    const refused: [name: string, query: string][] = [
      ['limit of 401 digits (Infinity as a double)', `limit=${digits400}`],
      ['limit of 309 nines (the first length past a double)', `limit=${'9'.repeat(309)}`],
      ['limit of 309 digits that a double holds (1e308)', `limit=1${'0'.repeat(308)}`],
      ['limit of - and 400 digits (-Infinity)', `limit=-${'9'.repeat(400)}`],
      ['limit 1e999', 'limit=1e999'],
      ['limit Infinity', 'limit=Infinity'],
      ['limit -Infinity', 'limit=-Infinity'],
      ['limit +5, the + encoded', 'limit=%2B5'],
      ['limit +5, the + read as a space', 'limit=+5'],
      ['limit -0, below the minimum', 'limit=-0'],
      ['limit 2^53 + 1', 'limit=9007199254740993'],
      ['offset of 401 digits (Infinity as a double)', `offset=${digits400}`],
      ['offset of 309 nines', `offset=${'9'.repeat(309)}`],
      ['offset of - and 400 digits (-Infinity)', `offset=-${'9'.repeat(400)}`],
      ['offset 1e999', 'offset=1e999'],
      ['offset -1e999', 'offset=-1e999'],
      ['offset Infinity', 'offset=Infinity'],
      ['offset +5', 'offset=%2B5'],
      ['offset 2147483648, one past the maximum', 'offset=2147483648'],
      ['offset -2147483649', 'offset=-2147483649'],
    ];
    it('are tested for every numeric parameter of the contract: no path or header parameter is one', () => {
      const numeric = specOperations(spec).flatMap(({ operation, parameters }) =>
        parameters
          .filter(({ schema }) => [resolveRef(schema).type].flat().some((t) => t === 'integer' || t === 'number'))
          .map(({ in: location, name }) => `${operation.operationId} ${location} ${name}`),
      );
      expect(numeric.sort()).toEqual(['listPresetVersions query limit', 'listPresetVersions query offset']);
    });

    it.each(refused)('refuses the %s with 400 naming it', async (_name, query) => {
      const response = await list(`?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe(400);
      expect(failingFields(response)).toEqual([`/query/${query.split('=')[0]}`]);
    });

    it('names both parameters when both are past their range', async () => {
      const response = await list(`?offset=-${'9'.repeat(400)}&limit=${digits400}`);
      expect(response.status).toBe(400);
      expect(failingFields(response)).toEqual(['/query/limit', '/query/offset']);
    });

    const versions = (response: Awaited<ReturnType<typeof list>>) =>
      response.body.data.map((v: { version: number }) => v.version);

    it.each([
      ['limit=1', [1]],
      ['limit=100', [1, 2, 3, 4, 5, 6, 7]],
      ['offset=0', [1, 2, 3, 4, 5, 6, 7]],
      ['offset=2147483647', []],
      ['offset=2147483647&limit=100', []],
      ['offset=6&limit=1', [7]],
    ])('answers the boundary %s with 200', async (query, expected) => {
      const response = await list(`?${query}`);
      expect(response.status).toBe(200);
      expect(versions(response)).toEqual(expected);
      expect(response.body.total_count).toBe(VERSION_COUNT);
    });

    // Digits are digits: leading zeros change no value, and the value is checked against the bounds.
    it.each([
      ['limit=003', [1, 2, 3]],
      ['limit=0100', [1, 2, 3, 4, 5, 6, 7]],
      [`limit=${'0'.repeat(400)}2`, [1, 2]],
      ['offset=005', [6, 7]],
      [`offset=${'0'.repeat(400)}`, [1, 2, 3, 4, 5, 6, 7]],
      ['offset=-0', [1, 2, 3, 4, 5, 6, 7]],
      ['offset=002147483647', []],
    ])('reads %s, leading zeros and all, as its value', async (query, expected) => {
      const response = await list(`?${query}`);
      expect(response.status).toBe(200);
      expect(versions(response)).toEqual(expected);
    });

    it.each(['limit=0101', 'limit=000', `offset=0${'0'.repeat(400)}2147483648`])(
      'refuses %s, leading zeros and all, past its bounds',
      async (query) => {
        const response = await list(`?${query}`);
        expect(response.status).toBe(400);
        expect(failingFields(response)).toEqual([`/query/${query.split('=')[0]}`]);
      },
    );
  });

  describe('boundary values of the contract', () => {
    const queryCases = boundaryCases.filter(
      (c) => c.target.operationId === 'listPresetVersions' && c.target.in === 'query',
    );
    it.each(queryCases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
      const name = testCase.target.in === 'query' ? testCase.target.name : '';
      const response = await list(`?${name}=${encodeURIComponent(toQueryValue(testCase.value))}`);
      if (testCase.valid) {
        expect(response.status).toBe(200);
      } else {
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe(400);
        expect(response.body.error.metadata.errors.map((e: { path: string }) => e.path)).toContain(testCase.errorPath);
      }
    });
  });
});

describe('a page of large versions', () => {
  const LARGE = 'large-prompts';
  const LARGE_COUNT = 12;
  // Each version is as large as its system prompt lets it be: 100,000 characters and `{}` (2).
  const promptLength = Number(nodeAt(spec, '#/components/schemas/PresetVersion/properties/system_prompt/maxLength'));
  const versionSize = promptLength + 2;
  const fitting = Math.ceil(PAGE_CHARACTER_BUDGET / versionSize);

  beforeAll(async () => {
    for (let i = 1; i <= LARGE_COUNT; i++) {
      await provision.addPresetVersion(
        server.store,
        {
          workspaceId: workspace.id,
          slug: LARGE,
          config: {},
          systemPrompt: `${i}`.padEnd(promptLength, 'p'),
          creatorId: 'u',
        },
        server.clock.now(),
      );
    }
  });

  it('is stated in the contract: the budget of a page, and the length of a config', () => {
    const { template: path, method } = findOperation('listPresetVersions');
    const description = String(nodeAt(spec, `#/paths/${escapePointer(path)}/${method}/description`));
    expect(description).toContain(PAGE_CHARACTER_BUDGET.toLocaleString('en'));
    expect(description).toContain(MAX_CONFIG_JSON_LENGTH.toLocaleString('en'));
  });

  it('ends before the version that would take it past the budget, and the next page goes on from there', async () => {
    expect(fitting).toBeLessThan(LARGE_COUNT);
    const first = await list('?limit=100', workspace.standardKey, LARGE);
    const versions = (response: typeof first) => response.body.data.map((v: { version: number }) => v.version);
    expect(versions(first)).toEqual(Array.from({ length: fitting }, (_, i) => i + 1));
    expect(first.body.total_count).toBe(LARGE_COUNT);
    const next = await list(`?offset=${fitting}&limit=100`, workspace.standardKey, LARGE);
    expect(versions(next)).toEqual(Array.from({ length: LARGE_COUNT - fitting }, (_, i) => fitting + i + 1));
  });

  it('holds its first version whatever its size', async () => {
    const page = await server.store.presets.pageOfVersions(workspace.id, LARGE, 3, 100, { budget: 1 });
    const versions = JSON.parse(page?.versionsJson ?? '[]') as { version: number }[];
    expect(versions.map((v) => v.version)).toEqual([4]);
  });
});
