// `npm run conformance` held to its promises: against this server (on each database) it finds no
// failure in at least 500 requests per operation, invalid ones included; against a server that
// breaks the contract it reports each failure with a curl line and a replay, and exits 1; when it
// cannot run, one line and exit 2.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadContract } from '../../scripts/conformance/contract.js';
import type { Outcome } from '../../scripts/conformance/exchange.js';
import { main } from '../../scripts/conformance/index.js';
import { runConformance } from '../../scripts/conformance/run.js';
import { provision } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';
import { PROPERTY_TIMEOUT_MS } from './runs.js';

const contract = loadContract();
// The server's own HTTP server: the HTTP checks of --negative send what Node's parser meets first.
const server = useTestServer({ httpServer: true });
const workspace = useWorkspace(server);
const PRESET = 'conformance-pages';
let destinationId = '';
const seed = process.env.FC_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FC_SEED);

beforeAll(async () => {
  const now = server.clock.now();
  const destination = await provision.createDestination(
    server.store,
    {
      workspaceId: workspace.id,
      type: 'langfuse',
      name: 'Conformance',
      config: { publicKey: 'pk-lf-1', secretKey: 'sk-lf-1' },
    },
    now,
  );
  destinationId = destination.id;
  for (let i = 0; i < 9; i++)
    await provision.addPresetVersion(
      server.store,
      { workspaceId: workspace.id, slug: PRESET, config: { model: `m-${i}` }, creatorId: 'u' },
      now,
    );
});

const describeFailure = (outcome: Outcome) =>
  `${outcome.request.operationId} ${outcome.request.label}: ${outcome.problems.join('; ')} (seed ${seed}, case ${outcome.index})`;

describe('the conformance command against this server', () => {
  it(
    'finds no failure in at least 500 requests per operation, valid and invalid',
    async () => {
      const result = await runConformance(contract, {
        baseUrl: `${server.baseUrl}${contract.basePath}`,
        key: workspace.managementKey,
        standardKey: workspace.standardKey,
        destination: destinationId,
        preset: PRESET,
        seed,
        requests: 500,
        negative: true,
      });
      const failures = result.outcomes.filter((o) => o.problems.length > 0).map(describeFailure);
      expect(failures, failures.join('\n')).toEqual([]);
      // The HTTP checks of --negative were sent, every one: the run had each thing they need.
      expect(result.outcomes.filter((o) => o.request.label.startsWith('HTTP: ')).length).toBe(12);
      for (const operation of contract.operations) {
        const sent = result.outcomes.filter((o) => o.request.operationId === operation.operationId);
        expect(sent.length, operation.operationId).toBeGreaterThanOrEqual(500);
        expect(
          sent.some((o) => o.request.expect.kind === 'refused'),
          operation.operationId,
        ).toBe(true);
      }
      const errors = server.serverErrors();
      expect(errors, errors.map((entry) => JSON.stringify(entry)).join('\n')).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );
});

/** A server that answers every request 200 with the same body: it keeps almost nothing of the contract. */
function startCareless(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const careless: Server = createServer((_req, res) => {
    count += 1;
    _req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"name":"x"}}');
  });
  return new Promise((resolve) =>
    careless.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(careless.address() as AddressInfo).port}/api/v1`,
        requests: () => count,
        close: () => new Promise((done) => careless.close(() => done())),
      }),
    ),
  );
}

describe('the conformance command as a command', () => {
  let careless: Awaited<ReturnType<typeof startCareless>>;
  let printed: string[] = [];
  afterAll(() => careless.close());
  beforeEach(() => {
    printed = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    vi.spyOn(console, 'error').mockImplementation((line: string) => void printed.push(line));
  });
  afterEach(() => vi.restoreAllMocks());

  const KEY = `sk-or-v1-${'ab'.repeat(32)}`;
  /** Stands for the URL of a port nobody listens on, known once the tests run. */
  const CLOSED = 'http://closed.invalid';
  let closedUrl = '';
  beforeAll(async () => {
    careless = await startCareless();
    const closed = await startCareless();
    await closed.close();
    closedUrl = closed.url;
  });

  it('reports each failure with a curl line and the seed that replays it, never the key, and exits 1', async () => {
    expect(await main(['--url', careless.url, '--key', KEY, '--negative', '--requests', '5', '--seed', '7'])).toBe(1);
    const output = printed.join('\n');
    expect(output).toContain('FAIL getKey');
    expect(output).toMatch(/the body does not match its schema/);
    expect(output).toMatch(/expected 400 naming \/query\/limit, got 200/);
    expect(output).toContain(`curl -sS -i -X GET '${careless.url}/keys/`);
    expect(output).toContain('"Authorization: Bearer $CONFORMANCE_KEY"');
    expect(output).toMatch(
      /replay: npm run conformance -- --url \S+ --key "\$CONFORMANCE_KEY" --seed 7 --requests 5 --negative --case \d+/,
    );
    expect(output).not.toContain(KEY);
  });

  it('replays one request of a run with --case', async () => {
    const before = careless.requests();
    expect(await main(['--url', careless.url, '--key', KEY, '--negative', '--seed', '7', '--case', '3'])).toBe(1);
    // The preflight's read of the key, then the one request.
    expect(careless.requests() - before).toBe(2);
  });

  it('writes JSON and JUnit reports', async () => {
    await main(['--url', careless.url, '--key', KEY, '--requests', '3', '--seed', '1', '--format', 'json']);
    const report = JSON.parse(printed.join('\n')) as { seed: number; failures: { curl: string; problems: string[] }[] };
    expect(report.seed).toBe(1);
    expect(report.failures.length).toBeGreaterThan(0);
    printed = [];
    await main(['--url', careless.url, '--key', KEY, '--requests', '3', '--seed', '1', '--format', 'junit']);
    const xml = printed.join('\n');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="conformance">/);
    for (const operation of contract.operations) expect(xml).toContain(`<testsuite name="${operation.operationId}"`);
    expect(xml).toContain('<failure message=');
  });

  it.each([
    [[], /--url is required/],
    [['--url', 'ftp://x', '--key', 'k'], /--url takes an http or https URL/],
    [['--url', 'http://127.0.0.1:1'], /--key is required/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--format', 'xml'], /--format takes text, json, junit/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--requests', '0'], /--requests takes a positive integer/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--wat'], /Unknown option '--wat'/],
    [['--url', CLOSED, '--key', 'k'], /cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/v1: ECONNREFUSED/],
  ])('exits 2 with one line when it cannot run: %j', async (argv, line) => {
    expect(await main(argv.map((arg) => (arg === CLOSED ? closedUrl : arg)))).toBe(2);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(line);
  });

  it('exits 2 on a key the deployment refuses, and on a base URL without the spec server path', async () => {
    expect(await main(['--url', `${server.baseUrl}${contract.basePath}`, '--key', KEY])).toBe(2);
    expect(printed.at(-1)).toMatch(/refused the key \(401\)/);
    expect(await main(['--url', server.baseUrl, '--key', workspace.managementKey])).toBe(2);
    expect(printed.at(-1)).toContain(`try --url ${server.baseUrl}${contract.basePath}`);
    expect(await main(['--url', `${server.baseUrl}${contract.basePath}`, '--key', workspace.standardKey])).toBe(2);
    expect(printed.at(-1)).toMatch(/not a management key \(403\)/);
  });
});
