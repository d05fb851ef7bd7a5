// A reporter beside vitest's default one: one line per skipped suite or test that says why, so that
// what did not run is visible without the verbose reporter. A skip gives its reason in its name,
// as `... (skipped: <reason>)`.
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SKIPPED = /^(.*) \(skipped: (.*)\)$/;

export default class SkipReasonsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines = new Set<string>();
    for (const module of testModules) {
      const file = relative(process.cwd(), module.moduleId);
      const skipped = [
        ...[...module.children.allSuites()].filter((suite) => suite.state() === 'skipped'),
        ...module.children.allTests('skipped'),
      ];
      for (const { name } of skipped) {
        const match = SKIPPED.exec(name);
        if (match) lines.add(`${match[1]} skipped: ${match[2]} (${file})`);
      }
    }
    if (lines.size > 0) process.stdout.write(`\n${[...lines].join('\n')}\n`);
  }
}
