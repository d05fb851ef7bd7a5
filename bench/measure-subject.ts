// The default benchmark on one database: the server under test against the baselines of the same
// run (a raw node:http server, bare Express 5 and Express behind the released validator, all
// answering from the subject's captured bodies, and the straightforward implementation on the same
// database), interleaved in rounds; then its flat cost as data grows, and its memory.
import { type Contenders, measureFlatCost, measureThroughput } from './load-driver.js';
import type { SubjectReport } from './report.js';
import { rssMb, type Started, serverNodeFlags, startServer, stopServer } from './shared/processes.js';
import { memoryHeld, soak } from './soak.js';
import { type BenchSettings, seededSubject } from './subject-setup.js';

async function startBaselines(bodiesFile: string, straightforward: () => Promise<Started>) {
  const baseline = (kind: string) => startServer('dist/bench/servers/baseline.js', [kind, bodiesFile]);
  return {
    raw: await baseline('raw'),
    bare: await baseline('express'),
    floor: await baseline('validator'),
    straightforward: await straightforward(),
  };
}

export async function measureSubject(
  label: string,
  databaseUrl: string,
  settings: BenchSettings,
  log: (message: string) => void,
): Promise<SubjectReport> {
  const seeded = await seededSubject(label, databaseUrl, settings.bigCount, log);
  const { subject, managementKey, scenarios } = seeded;
  // On the same database as the subject.
  const straightforward = () =>
    startServer(
      'dist/bench/servers/straightforward.js',
      [databaseUrl],
      { BENCH_SECRETS_KEY: seeded.secretsKey },
      serverNodeFlags,
    );
  const baselines = await startBaselines(seeded.bodiesFile, straightforward);
  const contenders: Contenders = { ...baselines, subject };
  const heldAtStart = await memoryHeld(subject);

  const throughput: SubjectReport['throughput'] = [];
  for (const scenario of scenarios) {
    const measured = await measureThroughput(settings, contenders, scenario, managementKey);
    throughput.push({ scenario: scenario.name, targets: scenario.targets, ...measured });
    const toStraightforward =
      measured.ratioToStraightforward === null
        ? ''
        : `, ${measured.ratioToStraightforward.toFixed(2)}x the straightforward implementation (CPU per request ${measured.cpuRatioToStraightforward?.toFixed(2)}x)`;
    log(
      `[${label}] ${scenario.name}: ${measured.ratioToExpress.toFixed(2)}x bare Express, ${measured.ratioToFloor.toFixed(2)}x Express + released validator${toStraightforward}, ${measured.subjectCpuUs.toFixed(0)} µs CPU per request`,
    );
  }

  const flatCost: SubjectReport['flatCost'] = [];
  const last = settings.bigCount - 100;
  const pages: [string, string, string][] = [
    [
      'page at offset 0',
      '/api/v1/presets/small/versions?offset=0&limit=100',
      '/api/v1/presets/huge/versions?offset=0&limit=100',
    ],
    [
      `page at offset ${last}`,
      '/api/v1/presets/small/versions?offset=0&limit=100',
      `/api/v1/presets/huge/versions?offset=${last}&limit=100`,
    ],
    ['getKey', `/api/v1/keys/${seeded.idleKeyHash}`, `/api/v1/keys/${seeded.busyKeyHash}`],
  ];
  for (const [measure, smallPath, largePath] of pages) {
    const { smallMs, largeMs } = await measureFlatCost(settings, subject.port, smallPath, largePath, managementKey);
    flatCost.push({ measure, smallMs, largeMs, ratio: largeMs / smallMs, target: measure === 'getKey' ? 1.2 : 2 });
    log(`[${label}] flat cost, ${measure}: ${(largeMs / smallMs).toFixed(2)}x`);
  }
  // The soak: three rounds of 20 s of every scenario at once; flat across rounds, and bounded.
  const soaked = await soak(
    subject,
    scenarios,
    managementKey,
    { rounds: 3, durationSec: settings.durationSec < 6 ? 2 : 20, connections: settings.connections },
    () => rssMb(subject.child.pid),
  );
  log(`[${label}] RSS after each round of the soak: ${soaked.rssMbByRound.map((mb) => mb.toFixed(0)).join(', ')} MB`);
  const held = { atStart: heldAtStart, afterSoak: await memoryHeld(subject) };
  log(`[${label}] memory held at start: ${held.atStart}\n[${label}] after the soak: ${held.afterSoak}`);
  const report = {
    database: label,
    throughput,
    flatCost,
    rssMb: rssMb(subject.child.pid),
    soak: { ...soaked, held },
  };
  await Promise.all([subject, ...Object.values(baselines)].map(stopServer));
  return report;
}
