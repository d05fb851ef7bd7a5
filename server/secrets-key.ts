// The key that seals the secrets the store keeps: SECRETS_KEY, or in development a key of the
// database's own, kept in a file beside it (dev-key-file.ts) and made on the first start.
import { randomBytes } from 'node:crypto';
import { ConfigError } from './config-error.js';
import { decodeSecretsKey } from './config-values.js';
import { developmentKeyFile, readOwnKey, readSharedKey, writeKeyFile } from './dev-key-file.js';
import { type DatabaseLocation, parseDatabaseUrl } from './store/database.js';

/** A development key made for a database, written (with its warning) once the database has opened. */
export interface PendingDevelopmentKey {
  file: string;
  save(): void;
}

export interface ResolvedSecretsKey {
  /** 32-byte key for AES-256-GCM of the secrets at rest. */
  secretsKey: Buffer;
  /** Where the key came from, as a start refused for keys that do not open the data says it (secrets-check.ts). */
  secretsKeySource: string;
  /** Without SECRETS_KEY in development: the key made for the database, to save once it has opened. */
  developmentKey?: PendingDevelopmentKey;
}

/**
 * SECRETS_KEY, or in development a key generated once for the database (with a warning), so that
 * the quick start needs no setup. Production refuses to start without it. A database that already
 * has data and no key of its own takes over the shared key of its folder (dev-key-file.ts), so that
 * nothing it holds becomes unreadable.
 */
export function resolveSecretsKey(
  env: NodeJS.ProcessEnv,
  databaseUrl: string,
  warn: (message: string) => void,
): ResolvedSecretsKey {
  if (env.SECRETS_KEY)
    return { secretsKey: decodeSecretsKey(env.SECRETS_KEY, 'SECRETS_KEY'), secretsKeySource: 'SECRETS_KEY' };
  if (env.NODE_ENV === 'production') {
    throw new ConfigError(
      'SECRETS_KEY is required when NODE_ENV=production (32 random bytes in base64, e.g. `openssl rand -base64 32`).',
    );
  }
  const location = parseDatabaseUrl(databaseUrl);
  if (location.kind === 'sqlite' && location.filename === ':memory:')
    return { secretsKey: randomBytes(32), secretsKeySource: 'a random key of the in-memory database' };
  const keyFile = developmentKeyFile(databaseUrl);
  const cannot = (err: unknown) => {
    if (err instanceof ConfigError) return err;
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return new ConfigError(
      `SECRETS_KEY is not set, and the development key ${keyFile} cannot be made (${reason}): set SECRETS_KEY, or a DATABASE_URL in a folder that can be written.`,
    );
  };
  try {
    const own = readOwnKey(keyFile);
    if (own)
      return {
        secretsKey: decodeSecretsKey(own.text, own.file),
        secretsKeySource: `the development key file ${own.file}`,
      };
    const made = newDevelopmentKey(location, keyFile);
    const save = () => {
      try {
        writeKeyFile(keyFile, made.key);
      } catch (err) {
        throw cannot(err);
      }
      warn(made.warning);
    };
    return { secretsKey: made.key, secretsKeySource: made.source, developmentKey: { file: keyFile, save } };
  } catch (err) {
    throw cannot(err);
  }
}

/** The key of a database that has none yet: its folder's shared key when it takes it over, a new one otherwise. */
function newDevelopmentKey(
  location: DatabaseLocation,
  keyFile: string,
): { key: Buffer; source: string; warning: string } {
  const shared = readSharedKey(location, keyFile);
  if (shared) {
    return {
      key: decodeSecretsKey(shared.text, shared.file),
      source: `the shared development key file ${shared.file}, to be copied to ${keyFile}`,
      warning: `SECRETS_KEY is not set: the development key of this database is now ${keyFile} (copied from ${shared.file}, which other databases of the folder may still use). Set SECRETS_KEY in production.`,
    };
  }
  return {
    key: randomBytes(32),
    source: `a development key just generated for ${keyFile}`,
    warning: `SECRETS_KEY is not set: generated a development key into ${keyFile}. Set SECRETS_KEY in production.`,
  };
}

/**
 * The key a copy seals the target's secrets under (copy-database): TARGET_SECRETS_KEY; else the
 * source's own key, which under SECRETS_KEY the target shares. In development, the target's own
 * key file when it has one, else the source's key, saved as the target's once the copy writes.
 */
export function resolveTargetSecretsKey(
  env: NodeJS.ProcessEnv,
  targetUrl: string,
  sourceKey: Buffer,
  warn: (message: string) => void,
): ResolvedSecretsKey {
  if (env.TARGET_SECRETS_KEY)
    return {
      secretsKey: decodeSecretsKey(env.TARGET_SECRETS_KEY, 'TARGET_SECRETS_KEY'),
      secretsKeySource: 'TARGET_SECRETS_KEY',
    };
  if (env.SECRETS_KEY) return { secretsKey: sourceKey, secretsKeySource: 'SECRETS_KEY' };
  const keyFile = developmentKeyFile(targetUrl);
  const own = readOwnKey(keyFile);
  if (own)
    return {
      secretsKey: decodeSecretsKey(own.text, own.file),
      secretsKeySource: `the development key file ${own.file}`,
    };
  const save = () => {
    writeKeyFile(keyFile, sourceKey);
    warn(`SECRETS_KEY is not set: the development key of the target is now ${keyFile}, the source's key.`);
  };
  return { secretsKey: sourceKey, secretsKeySource: "the source's key", developmentKey: { file: keyFile, save } };
}
