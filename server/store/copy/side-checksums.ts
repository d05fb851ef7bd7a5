// The check at the end of a copy: one side's rows and checksum of a table, read whole in one
// snapshot of its own, as the API reads them (copied-tables.ts).
import type { SecretBox } from '../../domain/secrets.js';
import type { DatabaseLocation } from '../database.js';
import { type CopiedTable, rowValues, tableChecksum } from './copied-tables.js';
import { snapshotOf } from './open-sides.js';

export interface SideFigures {
  rows: number;
  checksum: string;
}

export async function tableFigures(
  location: DatabaseLocation,
  connectTimeoutMs: number,
  secrets: SecretBox,
  table: CopiedTable,
  limit: number,
): Promise<SideFigures> {
  const reader = await snapshotOf(location, connectTimeoutMs);
  try {
    const checksum = await tableChecksum(table, secrets);
    let rows = 0;
    // The next batch is asked for before this one is summed.
    let batch = reader.batch(table, null, limit);
    for (;;) {
      const { rows: read, next } = await batch;
      if (next !== null) batch = reader.batch(table, next, limit);
      for (const row of read) checksum.add(rowValues(table, row));
      rows += read.length;
      if (next === null) return { rows, checksum: checksum.toString() };
    }
  } finally {
    await reader.close();
  }
}
