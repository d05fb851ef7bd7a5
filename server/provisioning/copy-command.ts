// `copy-database --to <url> [--resume]`: every row of DATABASE_URL into another database, of either
// kind (store/copy/copy-database.ts), with its progress on a terminal and, at the end, what was
// read and written and the check of both sides. Exit 0 only when both sides hold the same rows.
import { type CopyReport, copyDatabase } from '../store/copy/copy-database.js';
import type { StorelessCommand, StorelessContext } from './command-table.js';
import { RefusedError } from './command-values.js';
import { formatDuration } from './progress-line.js';

export function copyCommand(): StorelessCommand {
  return {
    name: 'copy-database',
    about:
      'Copy every row of DATABASE_URL and its migration history into an empty database of either kind, then check both sides (README, "Moving to PostgreSQL").',
    options: [
      {
        name: 'to',
        value: 'URL',
        required: true,
        about: 'the target: sqlite:<file>, or postgres://<host>/<database> created beforehand',
      },
      { name: 'resume', about: 'go on with a copy into --to that was interrupted' },
    ],
    runWithoutStore: (values, context) => copy(String(values.to), values.resume === true, context),
  };
}

const count = (n: number) => n.toLocaleString('en-US');

async function copy(to: string, resume: boolean, context: StorelessContext) {
  const target = context.targetSecrets(to);
  const started = performance.now();
  let report: CopyReport;
  try {
    report = await copyDatabase({
      source: { url: context.databaseUrl, secrets: context.secrets, refuseKeys: context.refuseKeys },
      target: { url: to, secrets: target.secrets },
      resume,
      connectTimeoutMs: context.connectTimeoutMs,
      ...(target.save && { beforeWriting: target.save }),
      onProgress: ({ table, copied, total }) => {
        const seconds = (performance.now() - started) / 1000;
        const rate = copied / Math.max(seconds, 0.001);
        const left = total > copied && rate > 0 ? `, ${formatDuration((total - copied) / rate)} left` : '';
        const share = total > 0 ? ` (${Math.min(100, Math.floor((100 * copied) / total))}%)` : '';
        context.progress.update(
          `copy ${table}: ${count(copied)} of ${count(total)} rows${share}, ${count(Math.round(rate))} rows/s${left}`,
        );
      },
    });
  } finally {
    context.progress.end();
  }
  if (!report.equal) {
    const differ = Object.entries(report.tables)
      .filter(([, table]) => table.source.rows !== table.target.rows || table.source.checksum !== table.target.checksum)
      .map(([name, table]) => `${name} (source ${table.source.rows} rows, target ${table.target.rows})`);
    throw new RefusedError(
      `The copy is not equal to its source in ${differ.join(', ')}: the source changed while it was copied (make it read-only first), or another process wrote to the target.`,
    );
  }
  return report;
}
