// A setup file of mutation runs only (vitest.mutation.config.ts). While Stryker measures which tests
// reach which mutant, code that runs in a file's beforeAll or afterAll (building the app, opening
// and closing the database) runs outside any test, so Stryker counts it as "static" and would run
// the whole suite against each such mutant: thousands of runs of 40 s. What a file's hooks run,
// every test of that file depends on, so it is counted here as reached by each test of the file.
// Stryker switches a mutant on in its own beforeAll, which runs before the file's hooks: those tests
// then run against the mutated hooks. Code run while modules load stays static, as it must.
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';

type Hits = Record<string, number>;

interface Coverage {
  static: Hits;
  perTest: Record<string, Hits>;
}

interface StrykerNamespace {
  currentTestId?: string;
  mutantCoverage?: Coverage;
}

const provided = inject as unknown as (key: string) => unknown;
const namespaceName = provided('globalNamespace');

if (typeof namespaceName === 'string' && provided('mode') === 'dry-run') {
  const namespace = (): StrykerNamespace =>
    ((globalThis as Record<string, unknown>)[namespaceName] ?? {}) as StrykerNamespace;
  let hitsWhileLoading: Hits = {};
  const testsOfFile = new Set<string>();

  beforeAll(() => {
    hitsWhileLoading = { ...namespace().mutantCoverage?.static };
  });

  beforeEach(() => {
    const testId = namespace().currentTestId;
    if (testId) testsOfFile.add(testId);
  });

  afterAll(() => {
    const coverage = namespace().mutantCoverage;
    if (coverage) attributeHookHits(coverage, hitsWhileLoading, testsOfFile);
  });
}

/**
 * Moves the hits a mutant took since the file's modules loaded (in its hooks) from the static count
 * to each test of the file; what was hit while loading stays static.
 */
export function attributeHookHits(coverage: Coverage, hitsWhileLoading: Hits, testsOfFile: Iterable<string>): void {
  const testIds = [...testsOfFile];
  if (testIds.length === 0) return;
  for (const [mutantId, hits] of Object.entries(coverage.static)) {
    const loadingHits = hitsWhileLoading[mutantId] ?? 0;
    const hookHits = hits - loadingHits;
    if (hookHits <= 0) continue;
    for (const testId of testIds) {
      const perTest = coverage.perTest[testId] ?? {};
      perTest[mutantId] = (perTest[mutantId] ?? 0) + hookHits;
      coverage.perTest[testId] = perTest;
    }
    if (loadingHits > 0) coverage.static[mutantId] = loadingHits;
    else delete coverage.static[mutantId];
  }
}
