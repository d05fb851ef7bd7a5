// The two ends of a copy, as copy-database.ts uses either database: a reader of one consistent
// snapshot, batch by batch in the order its database reads fastest, and a writer that stores each batch together with
// the copy's progress, in one transaction, so that an interrupted copy resumes where it stopped.
import type { CopiedTable, Row } from './copied-tables.js';

/** Where a batch begins, as JSON can keep it in copy_progress. */
export type Place = readonly (string | number)[];

export interface SnapshotReader {
  count(table: CopiedTable): Promise<number>;
  /**
   * The batch of about `limit` rows from `from` (the first when null), and where the next begins
   * (a resumed copy goes on there); null after the last.
   */
  batch(table: CopiedTable, from: Place | null, limit: number): Promise<{ rows: Row[]; next: Place | null }>;
  close(): Promise<void>;
}

/** A row of copy_progress, as the writer stores it with its batch. */
export interface ProgressRecord {
  table_name: string;
  source: string;
  rows_copied: number;
  last_key: string | null;
  checksum: string;
  done: boolean;
  updated_at: string;
}

export interface BatchWriter {
  /** Inserts the rows (values in the table's column order) and records the progress, all or nothing. */
  write(table: CopiedTable, rows: readonly (readonly unknown[])[], progress: ProgressRecord): Promise<void>;
  close(): Promise<void>;
}

/** The statement that reads a batch; `placeholder` writes the n-th parameter (from 1) of the dialect. */
export function batchQuery(
  table: CopiedTable,
  after: readonly unknown[] | null,
  limit: number,
  placeholder: (n: number) => string,
): { text: string; values: unknown[] } {
  const columns = table.columns.map((column) => `"${column}"`).join(', ');
  const key = table.key.map((column) => `"${column}"`).join(', ');
  const values: unknown[] = after === null ? [] : [...after];
  const where =
    after === null ? '' : ` where (${key}) > (${table.key.map((_, index) => placeholder(index + 1)).join(', ')})`;
  values.push(limit);
  return {
    text: `select ${columns} from "${table.name}"${where} order by ${key} limit ${placeholder(values.length)}`,
    values,
  };
}

export const PROGRESS_COLUMNS = [
  'table_name',
  'source',
  'rows_copied',
  'last_key',
  'checksum',
  'done',
  'updated_at',
] as const;

/** The upsert of a table's progress; `placeholder` as in batchQuery. */
export function progressUpsert(placeholder: (n: number) => string): string {
  const names = PROGRESS_COLUMNS.join(', ');
  const params = PROGRESS_COLUMNS.map((_, index) => placeholder(index + 1)).join(', ');
  const updates = PROGRESS_COLUMNS.slice(1)
    .map((column) => `${column} = excluded.${column}`)
    .join(', ');
  return `insert into copy_progress (${names}) values (${params}) on conflict (table_name) do update set ${updates}`;
}
