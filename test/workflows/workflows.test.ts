// The consumer workflows (arazzo/workflows.arazzo.yaml), run by Redocly's respect through
// `npm run workflows`: against this server with the demo seed's keys, on each database, every
// check passes; a response broken on purpose fails the workflow and step that read it; the
// benchmark's straightforward implementation fails the steps it breaks; and a run that cannot
// start says so in one line and exits 2.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SOURCE_SCRIPTS } from '../../bench/shared/hostile.js';
import { runToEnd, type Started, startServer, stopServer } from '../../bench/shared/processes.js';
import { loadWorkflows } from '../../scripts/workflows/arazzo.js';
import { main } from '../../scripts/workflows/index.js';
import { type DemoSeed, seedDemo } from '../../server/provisioning/demo.js';
import { apiBasePaths } from '../../server/spec.js';
import { testDatabaseKind } from '../support/database.js';
import { provision } from '../support/server.js';
import { spec } from '../support/spec.js';
import { useTestServer } from '../support/use-test-server.js';

const server = useTestServer();
const [basePath = ''] = apiBasePaths(spec);
const workflows = loadWorkflows().workflows.map((workflow) => workflow.workflowId);
let seed: DemoSeed;

beforeAll(async () => {
  seed = await seedDemo(server.store, provision, server.clock.now());
});

/** What `npm run workflows` printed and returned. */
async function runWorkflows(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const capture = (chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  };
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(capture),
    vi.spyOn(process.stderr, 'write').mockImplementation(capture),
    vi.spyOn(console, 'log').mockImplementation((line: string) => capture(`${line}\n`)),
    vi.spyOn(console, 'error').mockImplementation((line: string) => capture(`${line}\n`)),
  ];
  try {
    const code = await main(argv);
    return { code, out: stripVTControlCharacters(out) };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

const demoArguments = (baseUrl: string) => [
  '--url',
  baseUrl,
  '--key',
  seed.management_key,
  '--standard-key',
  seed.standard_key,
  '--destination',
  seed.destination_id,
  '--preset',
  seed.preset_slug,
];

/** The workflows, and their steps, that respect's report says failed. */
function failedSteps(out: string): string[] {
  const failed = out.slice(out.indexOf('Failed tests info'));
  return [...failed.matchAll(/Workflow name: (\S+)|stepId - (\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

describe(`the consumer workflows against this server (${testDatabaseKind})`, () => {
  it('pass every check, every workflow run, with the demo keys', async () => {
    const { code, out } = await runWorkflows(demoArguments(`${server.baseUrl}${basePath}`));
    expect(out).toContain(`Workflows: ${workflows.length} passed, ${workflows.length} total`);
    expect(out).not.toContain('skipped');
    expect(code, out).toBe(0);
    // The keys are masked wherever respect prints them.
    expect(out).not.toContain(seed.management_key);
    expect(out).not.toContain(seed.standard_key);
  }, 120_000);

  it('skip, and say so, a workflow whose input is not given', async () => {
    const argv = demoArguments(`${server.baseUrl}${basePath}`);
    argv.splice(argv.indexOf('--standard-key'), 2);
    const { code, out } = await runWorkflows(argv);
    expect(out).toContain(`Workflows: ${workflows.length - 1} passed, ${workflows.length - 1} total`);
    expect(out).toContain('skipped learnAcceptedKeyKinds: it needs --standard-key');
    expect(code).toBe(0);
  }, 120_000);
});

describe('a response broken on purpose', () => {
  let proxy: Server;

  afterEach(() => new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve())));

  it('fails the workflow and the step that read it, and exits 1', async () => {
    // This server, but a 403 names the wrong kind of key.
    const target = new URL(server.baseUrl);
    proxy = createServer((req, res) => {
      const forwarded = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const body = Buffer.concat(chunks)
              .toString()
              .replace('"accepted_key_kinds":["management"]', '"accepted_key_kinds":["standard"]');
            const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
            res.writeHead(answer.statusCode ?? 502, headers).end(body);
          });
        },
      );
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as AddressInfo;
    const { code, out } = await runWorkflows(demoArguments(`http://127.0.0.1:${port}${basePath}`));
    expect(failedSteps(out)).toEqual(['learnAcceptedKeyKinds', 'refusedForItsKind']);
    expect(code).toBe(1);
  }, 120_000);
});

describe.runIf(testDatabaseKind === 'sqlite')(
  `the benchmark's straightforward implementation${testDatabaseKind === 'sqlite' ? '' : ' (skipped: its answers are the same on either database, and it runs once, on SQLite)'}`,
  () => {
    let straightforward: Started;
    let seeded: { managementKey: string; standardKey: string; destinationId: string };

    beforeAll(async () => {
      const env = { BENCH_SECRETS_KEY: randomBytes(32).toString('hex') };
      const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'workflows-db-')), 'api.db')}`;
      seeded = JSON.parse(await runToEnd('bench/servers/seed.ts', [databaseUrl, '0'], env, SOURCE_SCRIPTS.nodeFlags));
      straightforward = await startServer(
        'bench/servers/straightforward.ts',
        [databaseUrl],
        env,
        SOURCE_SCRIPTS.nodeFlags,
      );
    }, 120_000);
    afterAll(async () => {
      if (straightforward) await stopServer(straightforward);
    });

    it('fails the steps it breaks: a 403 without the kinds it accepts, a 400 without the fields it names', async () => {
      const { code, out } = await runWorkflows([
        '--url',
        `http://127.0.0.1:${straightforward.port}${basePath}`,
        '--key',
        seeded.managementKey,
        '--standard-key',
        seeded.standardKey,
        '--destination',
        seeded.destinationId,
        '--preset',
        'small',
      ]);
      expect(failedSteps(out)).toEqual([
        'learnAcceptedKeyKinds',
        'refusedForItsKind',
        'fixAFieldNamedBy400',
        'limitOutOfBounds',
      ]);
      expect(code).toBe(1);
    }, 120_000);
  },
);

describe('a run that cannot start', () => {
  it('says why in one line and exits 2', async () => {
    const refused = await runWorkflows(['--url', `${server.baseUrl}${basePath}`, '--key', 'sk-or-v1-unknown']);
    expect(refused).toEqual({
      code: 2,
      out: 'workflows: the deployment refused the key (401): give a key it knows (--key)\n',
    });
    const unreachable = await runWorkflows(['--url', 'http://127.0.0.1:1/api/v1', '--key', seed.management_key]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.out).toMatch(/^workflows: cannot reach http:\/\/127\.0\.0\.1:1\/api\/v1: .+\n$/);
    const noUrl = await runWorkflows(['--key', seed.management_key]);
    expect(noUrl).toEqual({
      code: 2,
      out: 'workflows: --url is required: the base URL the spec paths are served under (npm run workflows -- --help)\n',
    });
  });
});
