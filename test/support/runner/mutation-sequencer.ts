// The order of test files in a mutation run. Stryker stops a mutant's run at its first failing test,
// so the cheapest way to a kill is to run first the file that failed last (the mutants of one
// function come one after another and fall to the same tests), then the shortest files: a slow file
// runs only when nothing quicker has killed the mutant. Vitest's own order is the reverse (longest
// first), which suits a suite spread over many workers, not one worker that may stop early.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class MutationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const known = (file: TestSpecification) => {
      const key = `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`;
      const results = cache.getFileTestResults(key);
      return {
        failed: results?.failed === true,
        cost: results?.duration ?? cache.getFileStats(key)?.size ?? Number.POSITIVE_INFINITY,
      };
    };
    return files
      .map((file) => ({ file, ...known(file) }))
      .sort((a, b) => Number(b.failed) - Number(a.failed) || a.cost - b.cost)
      .map(({ file }) => file);
  }
}
