// `backup --to <file>`: a consistent copy of the SQLite database of DATABASE_URL, taken with
// SQLite's online backup while a server may be writing, checked, then put under the name given,
// with the development key beside it. The CLI runs it without opening the store (server/cli.ts),
// which would migrate the database or make it a key: the backup changes nothing of its source.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { backupSqliteFile, checkSqliteFile } from '../store/backup.js';
import { parseDatabaseUrl } from '../store/database.js';
import type { BackupContext, StorelessCommand } from './command-table.js';
import { RefusedError } from './command-values.js';

export function backupCommand(): StorelessCommand<BackupContext> {
  return {
    name: 'backup',
    about:
      'Copy the SQLite database, while a server may write to it, into a new file, checked before it takes the name; its development key goes beside it (<file>.key) unless SECRETS_KEY is set.',
    options: [{ name: 'to', value: 'FILE', required: true, about: 'the backup file, which must not exist yet' }],
    runWithoutStore: (values, context) => backup(String(values.to), context),
  };
}

/** The SQLite file to copy, or the one line that says why there is none. */
function sourceFile(databaseUrl: string): string {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.kind === 'postgres')
    throw new RefusedError(
      'DATABASE_URL is PostgreSQL: back it up with pg_dump --format=custom and restore it with pg_restore (README, "Backups"), and keep SECRETS_KEY with the dump',
    );
  if (location.filename === ':memory:')
    throw new RefusedError('DATABASE_URL is an in-memory database (sqlite::memory:): there is no file to back up');
  if (!existsSync(location.filename))
    throw new RefusedError(`there is no database at ${location.filename} (DATABASE_URL): nothing to back up`);
  return resolve(location.filename);
}

/** Refuses a target that cannot be written as a new file beside nothing it would replace. */
function checkTarget(to: string, source: string, keyFile: string | undefined): void {
  const folder = dirname(resolve(to));
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder) throw new RefusedError(`the folder of ${to} does not exist: nothing was written`);
  const target = statSync(to, { throwIfNoEntry: false });
  const database = statSync(source);
  if (target && target.dev === database.dev && target.ino === database.ino)
    throw new RefusedError(`--to names the database itself (${to}): back it up to another file`);
  if (target) throw new RefusedError(`${to} exists already: nothing was written (remove it, or choose another name)`);
  if (keyFile && existsSync(keyFile))
    throw new RefusedError(`${keyFile} exists already: nothing was written (remove it, or choose another name)`);
}

/** Gives the checked copy its name, never over a file that took the name meanwhile. */
function putInPlace(temporary: string, target: string): void {
  try {
    linkSync(temporary, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new RefusedError(`${target} was made while the backup ran: nothing was written`);
    // A file system without hard links: the name was free a moment ago.
    if (existsSync(target)) throw new RefusedError(`${target} was made while the backup ran: nothing was written`);
    renameSync(temporary, target);
  }
}

async function backup(to: string, { databaseUrl, developmentKeyFile, progress }: BackupContext) {
  const started = performance.now();
  const source = sourceFile(databaseUrl);
  const target = resolve(to);
  const keyFile = developmentKeyFile?.(target);
  checkTarget(to, source, keyFile);
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.partial`);
  let keyWritten = false;
  try {
    // Made here, rather than by the backup, so that a folder that cannot be written is said in one line.
    closeSync(openSync(temporary, 'wx', statSync(source).mode & 0o777));
  } catch (err) {
    throw new RefusedError(
      `the folder of ${to} cannot be written (${(err as NodeJS.ErrnoException).code}): nothing was written`,
    );
  }
  try {
    const { pages } = await backupSqliteFile(source, temporary, {
      onProgress: ({ totalPages, remainingPages }) =>
        progress.update(
          `backup: ${Math.floor((100 * (totalPages - remainingPages)) / totalPages)}% of ${totalPages} pages`,
        ),
    });
    progress.update(`backup: checking the copy (${pages} pages)`, true);
    const check = await checkSqliteFile(temporary);
    if (check.quickCheck !== 'ok')
      throw new RefusedError(`the copy failed PRAGMA quick_check (${check.quickCheck}): nothing was written`);
    const sourceKey = developmentKeyFile?.(source);
    if (keyFile && sourceKey && existsSync(sourceKey)) {
      copyFileSync(sourceKey, keyFile, constants.COPYFILE_EXCL);
      keyWritten = true;
      chmodSync(keyFile, 0o600);
    }
    putInPlace(temporary, target);
    return {
      file: target,
      bytes: statSync(target).size,
      pages: check.pages,
      page_size: check.pageSize,
      quick_check: check.quickCheck,
      tables: check.tables,
      ms: Math.round(performance.now() - started),
      key_file: keyWritten ? keyFile : null,
      secrets: secretsNote(keyWritten, keyFile, sourceKey),
    };
  } catch (err) {
    if (keyWritten && keyFile) rmSync(keyFile, { force: true });
    throw err;
  } finally {
    progress.end();
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${temporary}${suffix}`, { force: true });
  }
}

function secretsNote(keyWritten: boolean, keyFile: string | undefined, sourceKey: string | undefined): string {
  if (keyFile === undefined)
    return 'sealed under SECRETS_KEY: keep that key with the backup; the restored database needs the same SECRETS_KEY';
  if (keyWritten) return `sealed under the development key, copied beside the backup (${keyFile})`;
  return `the database has no development key (${sourceKey}), so none was copied`;
}
