// The load: autocannon on loopback against each server in turn, bounded in time and connections,
// in interleaved rounds with the order rotated; and sequential requests for latency.
import autocannon from 'autocannon';
import { cpuMicros, type Started } from './shared/processes.js';
import { firstBody, requestsOf, type Scenario } from './shared/scenarios.js';
import { median } from './shared/stats.js';

export interface LoadSettings {
  rounds: number;
  durationSec: number;
  connections: number;
  latencySamples: number;
  /** Requests per rung and round in the ladder: a fixed number, for the CPU time per request. */
  ladderRequests: number;
}

interface LoadResult {
  rps: number;
  p99: number;
  errors: number;
  /** The server's own CPU time (user and system, read inside its process) per request answered. */
  cpuUs: number;
}

/**
 * One load on one server: for `settings.durationSec`, or for exactly `amount` requests. A load by
 * amount ends on autocannon's one-second tick, so only its CPU time per request is meaningful.
 */
export async function load(
  settings: LoadSettings,
  server: Started,
  scenario: Scenario,
  apiKey: string,
  amount?: number,
): Promise<LoadResult> {
  const requests = requestsOf(scenario, apiKey);
  const cpuBefore = await cpuMicros(server);
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: settings.connections,
    ...(amount === undefined ? { duration: settings.durationSec } : { amount }),
    requests,
  });
  const cpuUs = (await cpuMicros(server)) - cpuBefore;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    // A 304 is what a conditional scenario asks for, not an error.
    errors: (scenario.headers?.['if-none-match'] ? 0 : result.non2xx) + result.errors,
    cpuUs: cpuUs / Math.max(1, result.requests.total),
  };
}

/** The servers compared, by name; the straightforward implementation where a run starts it. */
export type Contenders = Record<'raw' | 'bare' | 'floor' | 'subject', Started> & { straightforward?: Started };

export interface Throughput {
  rawRps: number;
  expressRps: number;
  floorRps: number;
  subjectRps: number;
  ratioToExpress: number;
  ratioToFloor: number;
  expressCpuUs: number;
  floorCpuUs: number;
  subjectCpuUs: number;
  /** The straightforward implementation (servers/straightforward.ts), when it ran; null otherwise. */
  straightforwardRps: number | null;
  ratioToStraightforward: number | null;
  straightforwardCpuUs: number | null;
  /** This server's CPU time per request over the straightforward implementation's, median of the rounds. */
  cpuRatioToStraightforward: number | null;
  straightforwardP99Ms: number | null;
  /** This server's p99 over the straightforward implementation's, median of the rounds. */
  p99RatioToStraightforward: number | null;
  /** The stock floor's CPU time per request over this server's, median of the rounds. */
  floorCpuRatio: number;
  p99Ms: number;
  expressP99Ms: number;
  p99Ratio: number;
  errors: number;
}

/** Throughput and p99 of one scenario on every server, medians of interleaved rounds. */
export async function measureThroughput(
  settings: LoadSettings,
  contenders: Contenders,
  scenario: Scenario,
  apiKey: string,
): Promise<Throughput> {
  const samples = {
    raw: [] as number[],
    bare: [] as number[],
    floor: [] as number[],
    subject: [] as number[],
    ratio: [] as number[],
    floorRatio: [] as number[],
    p99: [] as number[],
    bareP99: [] as number[],
    p99Ratio: [] as number[],
    bareCpu: [] as number[],
    floorCpu: [] as number[],
    subjectCpu: [] as number[],
    straightforward: [] as number[],
    straightforwardRatio: [] as number[],
    straightforwardCpu: [] as number[],
    straightforwardCpuRatio: [] as number[],
    straightforwardP99: [] as number[],
    straightforwardP99Ratio: [] as number[],
    floorCpuRatio: [] as number[],
    errors: 0,
  };
  const order = Object.keys(contenders) as (keyof Contenders)[];
  // Each server once first, unmeasured, so that no figure includes its JIT warming up.
  for (const name of order) await load(settings, contenders[name] as Started, scenario, apiKey);
  for (let round = 0; round < settings.rounds; round++) {
    // Interleaved, in a rotating order, so that drift of the machine hits them all alike.
    const rotated = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
    const results = {} as Record<Exclude<keyof Contenders, 'straightforward'>, LoadResult> & {
      straightforward?: LoadResult;
    };
    for (const name of rotated) results[name] = await load(settings, contenders[name] as Started, scenario, apiKey);
    const { raw, bare, floor, subject, straightforward } = results;
    samples.raw.push(raw.rps);
    samples.bare.push(bare.rps);
    samples.floor.push(floor.rps);
    samples.subject.push(subject.rps);
    samples.ratio.push(subject.rps / bare.rps);
    samples.floorRatio.push(subject.rps / floor.rps);
    samples.p99.push(subject.p99);
    samples.bareP99.push(bare.p99);
    samples.p99Ratio.push(subject.p99 / Math.max(1, bare.p99));
    samples.bareCpu.push(bare.cpuUs);
    samples.floorCpu.push(floor.cpuUs);
    samples.subjectCpu.push(subject.cpuUs);
    samples.floorCpuRatio.push(floor.cpuUs / subject.cpuUs);
    samples.errors += raw.errors + bare.errors + floor.errors + subject.errors;
    if (straightforward) {
      samples.straightforward.push(straightforward.rps);
      samples.straightforwardRatio.push(subject.rps / straightforward.rps);
      samples.straightforwardCpu.push(straightforward.cpuUs);
      samples.straightforwardCpuRatio.push(subject.cpuUs / straightforward.cpuUs);
      samples.straightforwardP99.push(straightforward.p99);
      samples.straightforwardP99Ratio.push(subject.p99 / Math.max(1, straightforward.p99));
      samples.errors += straightforward.errors;
    }
  }
  const medianOrNull = (values: number[]) => (values.length === 0 ? null : median(values));
  return {
    rawRps: median(samples.raw),
    expressRps: median(samples.bare),
    floorRps: median(samples.floor),
    subjectRps: median(samples.subject),
    ratioToExpress: median(samples.ratio),
    ratioToFloor: median(samples.floorRatio),
    expressCpuUs: median(samples.bareCpu),
    floorCpuUs: median(samples.floorCpu),
    subjectCpuUs: median(samples.subjectCpu),
    straightforwardRps: medianOrNull(samples.straightforward),
    ratioToStraightforward: medianOrNull(samples.straightforwardRatio),
    straightforwardCpuUs: medianOrNull(samples.straightforwardCpu),
    cpuRatioToStraightforward: medianOrNull(samples.straightforwardCpuRatio),
    straightforwardP99Ms: medianOrNull(samples.straightforwardP99),
    p99RatioToStraightforward: medianOrNull(samples.straightforwardP99Ratio),
    floorCpuRatio: median(samples.floorCpuRatio),
    p99Ms: median(samples.p99),
    expressP99Ms: median(samples.bareP99),
    p99Ratio: median(samples.p99Ratio),
    errors: samples.errors,
  };
}

export interface RungResult {
  /** The median of the rounds. */
  cpuUs: number;
  /** Each round's CPU time per request, in the order of the rounds. */
  cpuUsByRound: number[];
  errors: number;
}

/**
 * One scenario on every rung of the ladder: a fixed number of requests per rung and round, the
 * rungs interleaved in a rotating order; medians of the CPU time per request.
 */
export async function measureLadder(
  settings: LoadSettings,
  rungs: Map<string, Started>,
  scenario: Scenario,
  apiKey: string,
): Promise<Map<string, RungResult>> {
  const ids = [...rungs.keys()];
  // Each server once first, unmeasured, so that no rung's figure includes its JIT warming up.
  for (const id of ids) await load(settings, rungs.get(id) as Started, scenario, apiKey, settings.ladderRequests);
  const samples = new Map(ids.map((id) => [id, { cpuUs: [] as number[], errors: 0 }]));
  for (let round = 0; round < settings.rounds; round++) {
    const shift = round % ids.length;
    for (const id of [...ids.slice(shift), ...ids.slice(0, shift)]) {
      const result = await load(settings, rungs.get(id) as Started, scenario, apiKey, settings.ladderRequests);
      const sample = samples.get(id);
      sample?.cpuUs.push(result.cpuUs);
      if (sample) sample.errors += result.errors;
    }
  }
  return new Map(
    [...samples].map(([id, s]) => [id, { cpuUs: median(s.cpuUs), cpuUsByRound: s.cpuUs, errors: s.errors }]),
  );
}

async function sequentialLatencyMs(
  settings: LoadSettings,
  port: number,
  path: string,
  apiKey: string,
): Promise<number> {
  const timings: number[] = [];
  for (let i = 0; i < settings.latencySamples; i++) {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    timings.push(performance.now() - started);
  }
  return median(timings);
}

/** Median latency of sequential requests on small and on large data, medians of rounds. */
export async function measureFlatCost(
  settings: LoadSettings,
  port: number,
  smallPath: string,
  largePath: string,
  apiKey: string,
): Promise<{ smallMs: number; largeMs: number }> {
  const small: number[] = [];
  const large: number[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    small.push(await sequentialLatencyMs(settings, port, smallPath, apiKey));
    large.push(await sequentialLatencyMs(settings, port, largePath, apiKey));
  }
  return { smallMs: median(small), largeMs: median(large) };
}

/** The subject's answers to the scenarios, for the baselines to send back as they are. */
export async function captureBodies(
  port: number,
  scenarios: Scenario[],
  apiKey: string,
): Promise<Record<string, string>> {
  const bodies: Record<string, string> = {};
  for (const scenario of scenarios) {
    for (const path of scenario.paths ?? [scenario.path]) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: scenario.method,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        ...(scenario.method === 'PATCH' && { body: firstBody(scenario) }),
      });
      if (response.status !== 200) throw new Error(`${scenario.name} answered ${response.status}`);
      bodies[`${scenario.method} ${path}`] = await response.text();
    }
  }
  return bodies;
}
