// How spec:diff does on a pair of the fixtures battery: the ids the pair's oasdiff test asserts, each
// at its level, and, for a test that runs all of oasdiff's checks, the gate's verdict.
import { specChanges } from '../engine/compare.js';
import { type FixturePair, isBreaking, levelOf } from './fixtures-kit.js';

export interface FixtureResult {
  /** The asserted ids reported at all, and those reported at their level (with the override's note). */
  idsFound: string[];
  levelsMet: string[];
  /** The ids reported that the test asserts oasdiff does not report. */
  unexpected: string[];
  /** Whether an error was reported: the gate fails. */
  failsGate: boolean;
  /** For an all-checks pair: whether the gate agrees with oasdiff. */
  gateAgrees?: boolean;
  reported: string[];
}

export async function scoreFixture(pair: FixturePair): Promise<FixtureResult> {
  const changes = await specChanges(structuredClone(pair.before), structuredClone(pair.after));
  const idsFound = pair.ids.filter((id) => changes.some((c) => c.id === id));
  const levelsMet = pair.ids.filter((id) =>
    changes.some(
      (c) => c.id === id && c.level === levelOf(pair, id) && Boolean(c.override) === Boolean(pair.overrides?.[id]),
    ),
  );
  const failsGate = changes.some((c) => c.level === 'error');
  return {
    idsFound,
    levelsMet,
    unexpected: (pair.absent ?? []).filter((id) => changes.some((c) => c.id === id)),
    failsGate,
    ...(pair.checks === 'all' && { gateAgrees: failsGate === isBreaking(pair) }),
    reported: [...new Set(changes.map((c) => `${c.level} ${c.id}`))],
  };
}
