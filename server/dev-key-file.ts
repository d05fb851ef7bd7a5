// The files of the development secrets keys: where a database's key is kept, reading it, and
// writing a new one. What the key is for and when one is needed is decided by config.ts.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type DatabaseLocation, parseDatabaseUrl } from './store/database.js';

/**
 * The development key of a database: beside its SQLite file (`api.db.key` for `api.db`); for
 * PostgreSQL, in ./data, named after the server and the database (which parseDatabaseUrl requires).
 */
export function developmentKeyFile(databaseUrl: string): string {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.kind === 'sqlite') return `${location.filename}.key`;
  const url = new URL(location.url);
  const name = `${url.hostname}-${url.port || '5432'}-${url.pathname.slice(1)}`.replace(/[^\w.-]/g, '_');
  return join('data', `postgres-${name}.key`);
}

/** A key file's text, as it was written: the key in base64. */
export interface StoredKey {
  file: string;
  text: string;
}

/** The text of the database's own key file, when it has one. */
export function readOwnKey(keyFile: string): StoredKey | undefined {
  return existsSync(keyFile) ? { file: keyFile, text: readFileSync(keyFile, 'utf8') } : undefined;
}

/**
 * Before keys were per database, one `secrets.key` served every database of its folder: its text,
 * when the database already holds data (what it holds was sealed with that key) and the file exists.
 * It sits in the folder of the database's own key file (developmentKeyFile).
 */
export function readSharedKey(location: DatabaseLocation, keyFile: string): StoredKey | undefined {
  const file = join(dirname(keyFile), 'secrets.key');
  const hasData = location.kind === 'postgres' || existsSync(location.filename);
  return hasData && existsSync(file) ? { file, text: readFileSync(file, 'utf8') } : undefined;
}

/** Writes the key, readable by its owner only, making its folder when needed. */
export function writeKeyFile(keyFile: string, key: Buffer): void {
  mkdirSync(dirname(keyFile), { recursive: true });
  writeFileSync(keyFile, `${key.toString('base64')}\n`, { mode: 0o600 });
  chmodSync(keyFile, 0o600);
}
