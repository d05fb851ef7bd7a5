// The benchmark's own options: which databases a run measures, and a wrong option said in one line
// with exit code 2, before anything is built, seeded or started.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { databasesToRun } from '../../bench/shared/databases.js';
import { collectOutput } from '../../scripts/shared/child-process.js';
import { projectRoot } from '../support/process.js';

describe('databasesToRun', () => {
  const url = 'postgres://postgres@127.0.0.1:5432/postgres';

  it('runs SQLite, and PostgreSQL too when BENCH_POSTGRES_URL names a server', () => {
    expect(databasesToRun(undefined, undefined)).toEqual(['sqlite']);
    expect(databasesToRun(undefined, url)).toEqual(['sqlite', 'postgres']);
  });

  it('runs the one database --database names', () => {
    expect(databasesToRun('sqlite', url)).toEqual(['sqlite']);
    expect(databasesToRun('postgres', url)).toEqual(['postgres']);
  });

  it('says why it cannot run PostgreSQL without a server, or a database it does not know', () => {
    expect(databasesToRun('postgres', undefined)).toMatch(/^--database postgres needs BENCH_POSTGRES_URL/);
    expect(databasesToRun('mysql', url)).toBe('--database: sqlite or postgres (got mysql).');
  });
});

describe('npm run bench, given a wrong option', () => {
  it.concurrent.each([
    [['--database', 'mysql'], '--database: sqlite or postgres (got mysql).'],
    [['--rounds', '0'], '--rounds: a whole number from 1 to 200.'],
    [['--rounds', '2.5'], '--rounds: a whole number from 1 to 200.'],
    [['--rungs', 'metrics'], '--rungs goes with --ladder.'],
  ])('%j: one line, exit 2', async (argv, line) => {
    const { code, stdout, stderr } = await collectOutput(
      spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...argv], { cwd: projectRoot }),
    );
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
  });
});
