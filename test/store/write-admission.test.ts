// PostgreSQL's writers, as a process admits them: one write of a row at a time, at most `writers`
// rows at once, a bounded wait for a place, and the writes queued behind one that the database could
// not serve refused with its error at once. Whatever the flood, nothing is left behind once it ends.
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../server/store/database.js';
import { createWriteAdmission, WritersBusyError } from '../../server/store/write-admission.js';

/** A write that runs until the test lets it end, and says how many ran at once. */
function gate() {
  let running = 0;
  let most = 0;
  const pending: (() => void)[] = [];
  const write = (value: string) => async () => {
    running += 1;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => pending.push(resolve));
    running -= 1;
    return value;
  };
  return {
    write,
    most: () => most,
    running: () => running,
    /** Ends the writes running now. */
    release: async () => {
      for (const resolve of pending.splice(0)) resolve();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const lockTimeout = () => Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' });

describe('the admission of PostgreSQL writes', () => {
  it('runs one write of a row at a time, in the order they came', async () => {
    const admission = createWriteAdmission({ writers: 4, waitMs: 1000, isUnavailable: isDatabaseUnavailable });
    const writes = gate();
    const order: string[] = [];
    const results = ['a', 'b', 'c'].map((value) =>
      admission.admit('destinations/w/1', writes.write(value)).then((result) => order.push(result)),
    );
    await settle();
    expect(writes.running()).toBe(1);
    expect(admission.figures()).toEqual({ writing: 1, waiting: 2 });
    for (let i = 0; i < 3; i++) await writes.release();
    await Promise.all(results);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(writes.most()).toBe(1);
    expect(admission.figures()).toEqual({ writing: 0, waiting: 0 });
  });

  it('writes at most `writers` rows at once, and the others when a place comes free', async () => {
    const admission = createWriteAdmission({ writers: 2, waitMs: 1000, isUnavailable: isDatabaseUnavailable });
    const writes = gate();
    const results = ['1', '2', '3', '4', '5'].map((id) => admission.admit(`destinations/w/${id}`, writes.write(id)));
    await settle();
    expect(writes.running()).toBe(2);
    expect(admission.figures()).toEqual({ writing: 2, waiting: 3 });
    for (let i = 0; i < 3; i++) await writes.release();
    expect(await Promise.all(results)).toEqual(['1', '2', '3', '4', '5']);
    expect(writes.most()).toBe(2);
    expect(admission.figures()).toEqual({ writing: 0, waiting: 0 });
  });

  it('refuses a write whose place does not come free within the wait, as PostgreSQL refuses a lock', async () => {
    const admission = createWriteAdmission({ writers: 1, waitMs: 50, isUnavailable: isDatabaseUnavailable });
    const writes = gate();
    const holding = admission.admit('destinations/w/held', writes.write('held'));
    await settle();
    const started = performance.now();
    const refused = await admission.admit('destinations/w/other', writes.write('other')).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(WritersBusyError);
    // As the log says it: what was refused, and after how long.
    expect(refused).toMatchObject({
      name: 'WritersBusyError',
      code: '55P03',
      message: "no writer's place came free within 50 ms: every one waits on a locked row",
    });
    expect(performance.now() - started).toBeLessThan(1000);
    // Answered 503 with Retry-After, as any wait on the database past its bound.
    expect(isDatabaseUnavailable(refused)).toBe(true);
    await writes.release();
    expect(await holding).toBe('held');
    expect(admission.figures()).toEqual({ writing: 0, waiting: 0 });
  });

  it("gives the writes queued behind one the database could not serve that write's error at once", async () => {
    const admission = createWriteAdmission({ writers: 4, waitMs: 1000, isUnavailable: isDatabaseUnavailable });
    let fail: (err: Error) => void = () => undefined;
    const head = admission.admit(
      'destinations/w/locked',
      () =>
        new Promise<string>((_resolve, reject) => {
          fail = reject;
        }),
    );
    let ranBehind = 0;
    const behind = [1, 2, 3].map(() =>
      admission
        .admit('destinations/w/locked', async () => {
          ranBehind += 1;
          return 'written';
        })
        .catch((err: unknown) => err),
    );
    await settle();
    const error = lockTimeout();
    fail(error);
    await expect(head).rejects.toBe(error);
    expect(await Promise.all(behind)).toEqual([error, error, error]);
    expect(ranBehind).toBe(0);
    expect(admission.figures()).toEqual({ writing: 0, waiting: 0 });
    // The row is free again: the next write runs.
    expect(await admission.admit('destinations/w/locked', async () => 'written')).toBe('written');
  });

  it('passes the turn on after an error of the write itself (bad input): the next write of the row runs', async () => {
    const admission = createWriteAdmission({ writers: 4, waitMs: 1000, isUnavailable: isDatabaseUnavailable });
    const invalid = new Error('sampling_rate must be at most 1');
    const first = admission.admit('destinations/w/1', async () => {
      await settle();
      throw invalid;
    });
    const second = admission.admit('destinations/w/1', async () => 'written');
    await expect(first).rejects.toBe(invalid);
    expect(await second).toBe('written');
  });

  it('keeps nothing once a flood of writes to many rows has ended, whichever way each ended', async () => {
    const admission = createWriteAdmission({ writers: 3, waitMs: 20, isUnavailable: isDatabaseUnavailable });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 2000 }, (_, i) =>
        admission.admit(`destinations/w/${i % 200}`, async () => {
          await new Promise((resolve) => setTimeout(resolve, i % 3));
          if (i % 7 === 0) throw lockTimeout();
          return i;
        }),
      ),
    );
    expect(outcomes.some((outcome) => outcome.status === 'fulfilled')).toBe(true);
    expect(outcomes.some((outcome) => outcome.status === 'rejected')).toBe(true);
    for (const outcome of outcomes)
      if (outcome.status === 'rejected') expect(isDatabaseUnavailable(outcome.reason)).toBe(true);
    expect(admission.figures()).toEqual({ writing: 0, waiting: 0 });
  });
});
