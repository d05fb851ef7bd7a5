// The report of a run: the tables printed, and BENCHMARKS.md's table of record, rewritten by a
// full run only.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../server/project-root.js';
import type { ClientOverhead } from './client-overhead.js';
import type { Throughput } from './load-driver.js';
import type { ScenarioTargets } from './subject-setup.js';

export interface SubjectReport {
  database: string;
  throughput: (Throughput & { scenario: string; targets: ScenarioTargets })[];
  flatCost: { measure: string; smallMs: number; largeMs: number; ratio: number; target: number }[];
  rssMb: number;
  /** The resident set after each round of mixed load, and the load's non-2xx answers and errors. */
  soak: { rssMbByRound: number[]; errors: number; held: { atStart: string; afterSoak: string } };
}

export interface LadderReport {
  database: string;
  operations: {
    scenario: string;
    rungs: {
      label: string;
      cpuUs: number;
      /** The median of each round's difference to the base's run in the same round. */
      marginalCpuUs: number | null;
      /** A 95 % confidence interval of that median. */
      marginalInterval: [number, number] | null;
      /** The median of each round's CPU per request over the base's in the same round. */
      ratioToBase: number | null;
      /** The most that ratio may be (bench/shared/ladder-rungs.ts); null where the rung has no target. */
      ratioTarget: number | null;
      errors: number;
    }[];
  }[];
}

export interface Results {
  date: string;
  mode: 'quick' | 'full';
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string };
  settings: { rounds: number; durationSec: number; connections: number; bigCount: number; ladderRequests: number };
  subjects: SubjectReport[];
  startup: { firstOkMs: number; target: number };
  client: ClientOverhead & { processes: number[]; target: number };
  durationSec: number;
}

const pass = (ok: boolean) => (ok ? 'yes' : '**no**');
/** A figure of a baseline that may not have run. */
const orDash = (value: number | null, digits: number) => (value === null ? '-' : value.toFixed(digits));
const atLeast = (target: number | null) => (target === null ? '-' : `>= ${target}`);
const atMost = (target: number | null) => (target === null ? '-' : `<= ${target}`);
const meets = (value: number | null, target: number | null, most = false) =>
  target === null || (value !== null && (most ? value <= target : value >= target));

/** The most the resident set may be after the soak (BENCHMARKS.md, "PostgreSQL first"). */
const RSS_TARGET_MB = 140;

type ScenarioResult = SubjectReport['throughput'][number];

/** The server against the straightforward implementation on the same database. */
function straightforwardTable(throughput: ScenarioResult[]): string[] {
  const lines = [
    '| operation | req/s: straightforward, this server | ratio | target | p99 ms: straightforward, this server | p99 ratio | target | CPU µs/request: straightforward, this server | met |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const t of throughput) {
    const { straightforward, straightforwardP99 } = t.targets;
    const met =
      meets(t.ratioToStraightforward, straightforward) &&
      meets(t.p99RatioToStraightforward, straightforwardP99, true) &&
      t.errors === 0;
    lines.push(
      `| ${t.scenario} | ${orDash(t.straightforwardRps, 0)}, ${Math.round(t.subjectRps)} | ${orDash(t.ratioToStraightforward, 2)} | ${atLeast(straightforward)} | ${orDash(t.straightforwardP99Ms, 0)}, ${t.p99Ms} | ${orDash(t.p99RatioToStraightforward, 2)} | ${atMost(straightforwardP99)} | ${orDash(t.straightforwardCpuUs, 0)}, ${t.subjectCpuUs.toFixed(0)} | ${pass(met)} |`,
    );
  }
  return lines;
}

/** The server against empty apps answering its captured bodies: the stock floor and bare Express. */
function floorTable(throughput: ScenarioResult[]): string[] {
  const lines = [
    "| operation | req/s: raw node:http, bare Express, Express + released validator (the stock floor), this server | ratio to the floor | target | CPU µs/request: bare Express, the floor, this server | floor CPU / this server's | target | p99 ms: bare Express, this server | p99 ratio | target | met |",
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const t of throughput) {
    const { floor, floorCpu, p99 } = t.targets;
    const met = meets(t.ratioToFloor, floor) && meets(t.floorCpuRatio, floorCpu) && t.p99Ratio <= p99 && t.errors === 0;
    lines.push(
      `| ${t.scenario} | ${Math.round(t.rawRps)}, ${Math.round(t.expressRps)}, ${Math.round(t.floorRps)}, ${Math.round(t.subjectRps)} | ${t.ratioToFloor.toFixed(2)} | ${atLeast(floor)} | ${t.expressCpuUs.toFixed(0)}, ${t.floorCpuUs.toFixed(0)}, ${t.subjectCpuUs.toFixed(0)} | ${t.floorCpuRatio.toFixed(2)} | ${atLeast(floorCpu)} | ${t.expressP99Ms}, ${t.p99Ms} | ${t.p99Ratio.toFixed(2)} | <= ${p99} | ${pass(met)} |`,
    );
  }
  return lines;
}

export function resultsTable(results: Results): string {
  const lines: string[] = [];
  for (const subject of results.subjects) {
    lines.push(
      `### ${subject.database}`,
      '',
      'Against the straightforward implementation on the same database:',
      '',
      ...straightforwardTable(subject.throughput),
      '',
      'Against empty apps answering the same bodies:',
      '',
      ...floorTable(subject.throughput),
    );
    lines.push(
      '',
      `| flat cost (${results.settings.bigCount.toLocaleString('en')} rows vs small) | small ms | large ms | ratio | target | met |`,
      '|---|---|---|---|---|---|',
    );
    for (const f of subject.flatCost)
      lines.push(
        `| ${f.measure} | ${f.smallMs.toFixed(3)} | ${f.largeMs.toFixed(3)} | ${f.ratio.toFixed(2)} | <= ${f.target} | ${pass(f.ratio <= f.target)} |`,
      );
    const { rssMbByRound, errors, held } = subject.soak;
    const soakFlat = Math.max(...rssMbByRound) - Math.min(...rssMbByRound) <= 5;
    const soakMet = Math.max(...rssMbByRound) <= RSS_TARGET_MB && soakFlat && errors === 0;
    lines.push(
      '',
      `Server RSS after each round of the soak (mixed load): ${rssMbByRound.map((mb) => mb.toFixed(0)).join(', ')} MB (target <= ${RSS_TARGET_MB}, flat within 5 MB${errors === 0 ? '' : `; ${errors} errors`}): ${pass(soakMet)}`,
      '',
      `What the resident set holds, in MB, at start: ${held.atStart}; after the soak: ${held.afterSoak}.`,
      '',
    );
  }
  const { startup, client } = results;
  lines.push(
    `Start-up, process start to first 200: ${startup.firstOkMs.toFixed(0)} ms (target <= ${startup.target}): ${pass(startup.firstOkMs <= startup.target)}`,
  );
  lines.push(
    `Client getKey per call vs raw fetch: ${client.medianRatio.toFixed(3)}x, the median of three processes (${client.processes.map((r) => r.toFixed(3)).join(', ')}) (target <= ${client.target}): ${pass(client.medianRatio <= client.target)}`,
  );
  return lines.join('\n');
}

/** Per operation, each layer's CPU time per request and what it adds to the rung below it. */
export function ladderTable(ladders: LadderReport[]): string {
  const lines: string[] = [];
  for (const ladder of ladders) {
    for (const operation of ladder.operations) {
      lines.push(
        `### ${ladder.database}: ${operation.scenario}`,
        '',
        '| layer added | CPU µs/request | marginal CPU µs/request | 95 % interval | ratio to its base | target | met |',
        '|---|---|---|---|---|---|---|',
      );
      for (const rung of operation.rungs) {
        const marginal = rung.marginalCpuUs === null ? '-' : rung.marginalCpuUs.toFixed(1);
        const interval = rung.marginalInterval?.map((us) => us.toFixed(1)).join(' to ') ?? '-';
        const errors = rung.errors === 0 ? '' : ` (${rung.errors} errors)`;
        const ratio = rung.ratioToBase === null ? '-' : rung.ratioToBase.toFixed(3);
        const target = rung.ratioTarget === null ? '-' : atMost(rung.ratioTarget);
        const met =
          rung.ratioTarget === null || rung.ratioToBase === null
            ? '-'
            : pass(rung.ratioToBase <= rung.ratioTarget && rung.errors === 0);
        lines.push(
          `| ${rung.label}${errors} | ${rung.cpuUs.toFixed(0)} | ${marginal} | ${interval} | ${ratio} | ${target} | ${met} |`,
        );
      }
      lines.push('');
    }
  }
  return lines.join('\n');
}

/** Replaces the table of record in BENCHMARKS.md. */
export function writeTableOfRecord(results: Results, table: string): void {
  const file = join(projectRoot, 'BENCHMARKS.md');
  const { machine, settings } = results;
  const about = `Latest full run: ${results.date}, on ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGb} GB, Node ${machine.node}; ${settings.rounds} interleaved rounds of ${settings.durationSec} s, ${settings.connections} connections, medians.`;
  const markdown = readFileSync(file, 'utf8').replace(
    /<!-- results -->[\s\S]*<!-- \/results -->/,
    `<!-- results -->\n${about}\n\n${table}\n<!-- /results -->`,
  );
  writeFileSync(file, markdown);
}
