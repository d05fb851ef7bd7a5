// The quick start's first command itself, `npm start`, in a copy of the checkout as a fresh clone
// has it: it builds the server and the docs, and only what changed on later starts (what keeps a
// start within its time budget, measured by `npm run bench:first-start`); a source that does not
// compile stops it with the compiler's message and no stack.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { appendFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckoutCopy, copyOfCheckout } from '../../scripts/shared/checkout-copy.js';
import { collectOutput, waitForOutput } from '../../scripts/shared/child-process.js';

let copy: CheckoutCopy;
beforeAll(() => {
  copy = copyOfCheckout();
});
afterAll(() => copy.remove());

function npmStart(): ChildProcessWithoutNullStreams {
  // Its own process group: Ctrl-C reaches npm and the server alike, as in a terminal.
  return spawn('npm', ['start'], {
    cwd: copy.dir,
    detached: true,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: '0', SECRETS_KEY: '' },
  }) as ChildProcessWithoutNullStreams;
}

/** Waits for the server to listen, then presses Ctrl-C; resolves with everything printed. */
async function startAndStop(): Promise<{ stdout: string; url: string }> {
  const child = npmStart();
  const finished = collectOutput(child);
  const output = await waitForOutput(child, /"msg":"listening"[^\n]*\n/, 60_000);
  const url = /"url":"([^"]+)"/.exec(output)?.[1] ?? '';
  const ready = await fetch(`${url}/readyz`);
  expect(ready.status).toBe(200);
  process.kill(-(child.pid as number), 'SIGINT');
  const { stdout } = await finished;
  return { stdout, url };
}

const builtFiles = () => ['dist/server/main.js', 'dist/server/app.js', 'dist/docs/index.html'];
const modifiedTimes = () => builtFiles().map((file) => statSync(join(copy.dir, file)).mtimeMs);

// Steps in order on one copy, as a user takes them: the first start of a fresh clone, starts again
// after changes, then a source that does not compile. The files of the suite are shuffled; these steps are not.
describe('npm start on a fresh clone', { shuffle: false }, () => {
  it('builds the server and the docs, seeds the demo workspace, and serves the keys it prints', async () => {
    expect(builtFiles().filter((file) => existsSync(join(copy.dir, file)))).toEqual([]);
    const child = npmStart();
    const finished = collectOutput(child);
    const npmSignal = new Promise((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    const output = await waitForOutput(child, /"msg":"listening"[^\n]*\n/, 60_000);
    try {
      const key = /management key: (\S+)/.exec(output)?.[1];
      const getKey = /curl -s -H 'Authorization: Bearer \S+' (\S+\/keys\/\S+)/.exec(output)?.[1];
      const response = await fetch(getKey ?? '', { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
    } finally {
      process.kill(-(child.pid as number), 'SIGINT');
    }
    const { stdout, stderr } = await finished;
    // Ctrl-C: the server drains and stops (its own exit is 0); npm, interrupted too, ends on the
    // signal itself, which a shell reports as 130.
    expect(stdout).toContain('"msg":"stopped"');
    expect(await npmSignal).toBe('SIGINT');
    expect(builtFiles().filter((file) => existsSync(join(copy.dir, file)))).toEqual(builtFiles());
    // The docs build says one line on stdout; Redocly's notices and banners are shown only when it fails.
    expect(stderr).not.toMatch(/Redoc|Node\.js 20|╔/);
  }, 90_000);

  it('rebuilds nothing when nothing changed, the server but not the docs when a server source did, the docs when a rule of the changelog did', async () => {
    const built = modifiedTimes();
    const again = await startAndStop();
    expect(again.stdout).toContain('already has data');
    expect(modifiedTimes()).toEqual(built);

    appendFileSync(join(copy.dir, 'server', 'app.ts'), '\n');
    await startAndStop();
    const [, app, docs] = modifiedTimes();
    expect(app).toBeGreaterThan(built[1] ?? Number.POSITIVE_INFINITY);
    expect(docs).toBe(built[2]);

    // The changelog page classes changes with spec:diff's rules: a change of them rebuilds the docs.
    appendFileSync(join(copy.dir, 'scripts', 'spec-diff', 'engine', 'rules.ts'), '\n');
    await startAndStop();
    expect(modifiedTimes()[2]).toBeGreaterThan(built[2] ?? Number.POSITIVE_INFINITY);
  }, 90_000);

  it('stops on a source that does not compile: the compiler names the file and line, no stack, no server', async () => {
    appendFileSync(join(copy.dir, 'server', 'app.ts'), '\nexport const = ;\n');
    const { code, stdout, stderr } = await collectOutput(npmStart());
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/server\/app\.ts:\d+:\d+/);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stdout).not.toContain('"msg":"listening"');
  }, 60_000);
});
