// A/B: this working tree's server against the server of another git revision, both built, both on
// the same seeded SQLite database, loaded in alternation (A, B, B, A, ...) with a fixed number of
// requests each time; medians of their CPU time per request. For a change too small to show in
// the noise of req/s on a shared machine.
// Usage: npm run bench:ab -- <git-ref> [--rounds N] [--requests N]   (a revision with bench/servers/cpu-probe.ts
// and scripts/build-server.mjs)
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { projectRoot } from '../server/project-root.js';
import { runMain } from '../server/run-main.js';
import { measureLadder } from './load-driver.js';
import { writingPatchBody } from './shared/patch-bodies.js';
import { runToEnd, type Started, serverNodeFlags, startServer, stopServer } from './shared/processes.js';
import type { Scenario } from './shared/scenarios.js';

const USAGE = 'Usage: npm run bench:ab -- <git-ref> [--rounds N] [--requests N]';

const git = (...args: string[]) => execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8' }).trim();

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({
    args: argv,
    allowPositionals: true,
    options: { rounds: { type: 'string', default: '8' }, requests: { type: 'string', default: '5000' } },
  });
  if (typeof parsed === 'string') {
    console.error(`${parsed} (${USAGE})`);
    return 2;
  }
  const ref = parsed.positionals[0];
  if (!ref) {
    console.error(USAGE);
    return 2;
  }
  try {
    git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`);
  } catch {
    console.error(`Unknown git ref: ${ref}.`);
    return 2;
  }
  await compare(ref, Number(parsed.values.rounds), Number(parsed.values.requests));
  return 0;
}

/** Prints the CPU time per request of this tree's server against `ref`'s, per scenario. */
async function compare(ref: string, rounds: number, requests: number): Promise<void> {
  // The other revision, built in a worktree of its own with this tree's node_modules.
  const other = mkdtempSync(join(tmpdir(), 'bench-ab-'));
  git('worktree', 'add', '--detach', other, ref);
  try {
    if (!existsSync(join(other, 'node_modules')))
      symlinkSync(join(projectRoot, 'node_modules'), join(other, 'node_modules'));
    // Built as that revision builds itself for `npm start` and the benchmark (esbuild).
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: other, stdio: 'inherit' });
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'bench-ab-db-')), 'api.db')}`;
    const secretsKey = randomBytes(32).toString('hex');
    const seeded = JSON.parse(
      await runToEnd('dist/bench/servers/seed.js', [databaseUrl, '0'], { BENCH_SECRETS_KEY: secretsKey }),
    ) as Record<string, string>;
    const env = { BENCH_SECRETS_KEY: secretsKey };
    const servers = new Map<string, Started>([
      ['this tree', await startServer('dist/bench/servers/subject.js', [databaseUrl], env, serverNodeFlags)],
      [ref, await startServer(join(other, 'dist/bench/servers/subject.js'), [databaseUrl], env, serverNodeFlags)],
    ]);
    const scenarios: Scenario[] = [
      { name: 'getKey', method: 'GET', path: `/api/v1/keys/${seeded.idleKeyHash}` },
      {
        name: 'updateObservabilityDestination',
        method: 'PATCH',
        path: `/api/v1/observability/destinations/${seeded.destinationId}`,
        body: writingPatchBody,
      },
      { name: 'listPresetVersions limit=50', method: 'GET', path: '/api/v1/presets/small/versions?limit=50' },
    ];
    const settings = {
      rounds,
      durationSec: 0,
      connections: 10,
      latencySamples: 0,
      ladderRequests: requests,
    };
    console.log(`| operation | ${ref}, CPU µs/request | this tree | ratio |\n|---|---|---|---|`);
    try {
      for (const scenario of scenarios) {
        const measured = await measureLadder(settings, servers, scenario, seeded.managementKey ?? '');
        const before = measured.get(ref)?.cpuUs ?? Number.NaN;
        const after = measured.get('this tree')?.cpuUs ?? Number.NaN;
        console.log(
          `| ${scenario.name} | ${before.toFixed(0)} | ${after.toFixed(0)} | ${(after / before).toFixed(2)} |`,
        );
      }
    } finally {
      await Promise.all([...servers.values()].map(stopServer));
    }
  } finally {
    git('worktree', 'remove', '--force', other);
    rmSync(other, { recursive: true, force: true });
  }
}

await runMain(main, import.meta.url);
