// Who may write to PostgreSQL, and when: one write of a row at a time in this process, and at most
// `writers` rows written at once. A row locked by another session (an operator's transaction, a
// migration, a report) then holds one connection of this process while its writers wait, not the
// whole pool: reads and other rows keep being served. The writers queued behind a write that the
// database could not serve (a lock or statement timeout, an outage) get its error at once: they
// would meet the same lock, so none waits longer than one lock timeout.
//
// Rows are keyed by what a request names, so the queues hold only requests in flight: a row's entry
// is gone once its last write ends.

/** No writer's place came free in time: PostgreSQL's lock_not_available, met in this process. */
export class WritersBusyError extends Error {
  override name = 'WritersBusyError';
  readonly code = '55P03';
  constructor(waitMs: number) {
    super(`no writer's place came free within ${waitMs} ms: every one waits on a locked row`);
  }
}

export interface WriteAdmissionOptions {
  /** Rows written at once by this process. */
  writers: number;
  /** How long a write waits for a writer's place before it is refused with WritersBusyError. */
  waitMs: number;
  /** Whether a write's error means the database cannot serve the row now (then its queue shares it). */
  isUnavailable: (err: unknown) => boolean;
}

export interface WriteAdmission {
  /** Runs `write` once it is the row's turn and a writer's place is free. */
  admit<T>(row: string, write: () => Promise<T>): Promise<T>;
  /** Writes running, and writes waiting for their row's turn or a place. */
  figures(): { writing: number; waiting: number };
}

interface Waiter {
  go(): void;
  fail(err: unknown): void;
}

export function createWriteAdmission({ writers, waitMs, isUnavailable }: WriteAdmissionOptions): WriteAdmission {
  /** The writes waiting behind the one running, by row; a row is here while a write of it runs. */
  const rowQueues = new Map<string, Waiter[]>();
  const placeQueue: Waiter[] = [];
  let writing = 0;
  let waitingForTurn = 0;

  const turnOf = (row: string): Promise<void> | undefined => {
    const queue = rowQueues.get(row);
    if (!queue) {
      rowQueues.set(row, []);
      return undefined;
    }
    waitingForTurn += 1;
    return new Promise<void>((go, fail) => queue.push({ go, fail })).finally(() => {
      waitingForTurn -= 1;
    });
  };

  const passTurn = (row: string, failure: unknown) => {
    const queue = rowQueues.get(row) ?? [];
    if (failure !== undefined) {
      rowQueues.delete(row);
      for (const waiter of queue) waiter.fail(failure);
      return;
    }
    const next = queue.shift();
    if (next) next.go();
    else rowQueues.delete(row);
  };

  const place = (): Promise<void> | undefined => {
    if (writing < writers) {
      writing += 1;
      return undefined;
    }
    return new Promise<void>((go, fail) => {
      const waiter: Waiter = {
        go: () => {
          clearTimeout(timer);
          go();
        },
        fail,
      };
      const timer = setTimeout(() => {
        placeQueue.splice(placeQueue.indexOf(waiter), 1);
        fail(new WritersBusyError(waitMs));
      }, waitMs);
      placeQueue.push(waiter);
    });
  };

  const freePlace = () => {
    const next = placeQueue.shift();
    // The place goes straight to the next waiter: `writing` stays as it is.
    if (next) next.go();
    else writing -= 1;
  };

  return {
    async admit<T>(row: string, write: () => Promise<T>): Promise<T> {
      await turnOf(row);
      let failure: unknown;
      try {
        await place();
        try {
          return await write();
        } finally {
          freePlace();
        }
      } catch (err) {
        if (isUnavailable(err)) failure = err;
        throw err;
      } finally {
        passTurn(row, failure);
      }
    },
    figures: () => ({ writing, waiting: waitingForTurn + placeQueue.length }),
  };
}
