// A run's outcome as a person reads it (text), as a program reads it (JSON), or as a CI server
// reads test results (JUnit XML). Every failure carries a curl line to paste and the command that
// replays it; no key is ever printed.
import type { Outcome, RunOptions } from './exchange.js';
import type { RunResult } from './run.js';
import { curlLine, KEY_VARIABLE, STANDARD_KEY_VARIABLE } from './send.js';

export type ReportFormat = 'text' | 'json' | 'junit';

const failed = (outcome: Outcome) => outcome.problems.length > 0;

/** The command line that replays a run, or one of its requests, with the same seed. */
export function replayCommand(options: RunOptions, index?: number): string {
  const parts = ['npm run conformance --', '--url', options.baseUrl, '--key', `"$${KEY_VARIABLE}"`];
  if (options.standardKey) parts.push('--standard-key', `"$${STANDARD_KEY_VARIABLE}"`);
  if (options.destination) parts.push('--destination', options.destination);
  if (options.preset) parts.push('--preset', options.preset);
  parts.push('--seed', String(options.seed), '--requests', String(options.requests));
  if (options.negative) parts.push('--negative');
  if (index !== undefined && index >= 0) parts.push('--case', String(index));
  return parts.join(' ');
}

const KEY_VARIABLES: Record<Outcome['keyKind'], string | undefined> = {
  management: KEY_VARIABLE,
  standard: STANDARD_KEY_VARIABLE,
  none: undefined,
};

const curlOf = (outcome: Outcome, options: RunOptions) =>
  curlLine(options.baseUrl, outcome.request, KEY_VARIABLES[outcome.keyKind]);

function failureText(outcome: Outcome, options: RunOptions): string {
  const { request, answer } = outcome;
  return [
    `FAIL ${request.operationId}: ${request.label}`,
    ...outcome.problems.map((problem) => `  - ${problem}`),
    `  answer: ${answer ? `${answer.status} ${answer.text.slice(0, 300)}` : 'none'}`,
    `  curl: ${curlOf(outcome, options)}`,
    `  replay: ${replayCommand(options, outcome.index)}`,
  ].join('\n');
}

function counts(result: RunResult): Map<string, { sent: number; failed: number }> {
  const byOperation = new Map<string, { sent: number; failed: number }>();
  for (const outcome of result.outcomes) {
    const entry = byOperation.get(outcome.request.operationId) ?? { sent: 0, failed: 0 };
    entry.sent += 1;
    if (failed(outcome)) entry.failed += 1;
    byOperation.set(outcome.request.operationId, entry);
  }
  return byOperation;
}

function textReport(result: RunResult, options: RunOptions): string {
  const failures = result.outcomes.filter(failed);
  const lines = failures.map((outcome) => failureText(outcome, options));
  lines.push(`conformance of ${options.baseUrl} to openapi.yaml, seed ${result.seed}:`);
  for (const [operationId, { sent, failed: count }] of counts(result))
    lines.push(`  ${operationId}: ${sent} requests, ${count} failing`);
  if (result.stopped) lines.push(`stopped early: ${result.stopped}`);
  lines.push(
    failures.length === 0
      ? `conformance: ${result.outcomes.length} requests, no failure`
      : `conformance: ${result.outcomes.length} requests, ${failures.length} failing (replay the run: ${replayCommand(options)})`,
  );
  return lines.join('\n');
}

function jsonReport(result: RunResult, options: RunOptions): string {
  return JSON.stringify(
    {
      url: options.baseUrl,
      seed: result.seed,
      requests: result.outcomes.length,
      stopped: result.stopped ?? null,
      operations: Object.fromEntries(counts(result)),
      failures: result.outcomes.filter(failed).map((outcome) => ({
        case: outcome.index >= 0 ? outcome.index : null,
        operationId: outcome.request.operationId,
        label: outcome.request.label,
        key: outcome.keyKind,
        request: outcome.request,
        status: outcome.answer?.status ?? null,
        body: outcome.answer?.text.slice(0, 2000) ?? null,
        problems: outcome.problems,
        curl: curlOf(outcome, options),
        replay: replayCommand(options, outcome.index),
      })),
    },
    null,
    2,
  );
}

const xml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 has no place for these characters
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g, '\ufffd');

/** One test suite per operation, one test case per kind of request (a label), failing with its failures. */
function junitReport(result: RunResult, options: RunOptions): string {
  const suites = [...counts(result).keys()].map((operationId) => {
    const cases = new Map<string, Outcome[]>();
    for (const outcome of result.outcomes.filter((o) => o.request.operationId === operationId))
      cases.set(outcome.request.label, [...(cases.get(outcome.request.label) ?? []), outcome]);
    const testcases = [...cases].map(([label, outcomes]) => {
      const failures = outcomes.filter(failed);
      const body = failures.map((outcome) => failureText(outcome, options)).join('\n\n');
      return failures.length === 0
        ? `    <testcase classname="${xml(operationId)}" name="${xml(label)}"/>`
        : `    <testcase classname="${xml(operationId)}" name="${xml(label)}"><failure message="${xml(failures[0]?.problems[0] ?? '')}">${xml(body)}</failure></testcase>`;
    });
    const failing = [...cases.values()].filter((outcomes) => outcomes.some(failed)).length;
    return [
      `  <testsuite name="${xml(operationId)}" tests="${cases.size}" failures="${failing}">`,
      ...testcases,
      '  </testsuite>',
    ].join('\n');
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="conformance">`, ...suites, '</testsuites>'].join(
    '\n',
  );
}

export function formatReport(format: ReportFormat, result: RunResult, options: RunOptions): string {
  if (format === 'json') return jsonReport(result, options);
  if (format === 'junit') return junitReport(result, options);
  return textReport(result, options);
}
