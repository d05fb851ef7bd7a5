// The reader and the writer of a copy for the kind of database at each end.
import type { DatabaseLocation } from '../database.js';
import { postgresSnapshot, postgresWriter } from './postgres-side.js';
import type { BatchWriter, SnapshotReader } from './sides.js';
import { sqliteSnapshot, sqliteWriter } from './sqlite-side.js';

export const snapshotOf = (location: DatabaseLocation, connectTimeoutMs: number): Promise<SnapshotReader> =>
  location.kind === 'sqlite' ? sqliteSnapshot(location.filename) : postgresSnapshot(location.url, connectTimeoutMs);

export const writerOf = (location: DatabaseLocation, connectTimeoutMs: number): Promise<BatchWriter> =>
  location.kind === 'sqlite' ? sqliteWriter(location.filename) : postgresWriter(location.url, connectTimeoutMs);
