// The store that a configuration names, opened for the server or the command line.
import type { Config } from './config.js';
import { createSecretBox } from './domain/secrets.js';
import { openStore, type Store, type StoreOptions } from './store/index.js';

/**
 * The configuration's store, opened with its secrets keys. A development key made for the database
 * is saved only once the database has opened: a start that fails leaves no key behind for it.
 */
export async function openConfiguredStore(config: Config, options: StoreOptions = {}): Promise<Store> {
  const store = await openStore(config.databaseUrl, createSecretBox(config.secretsKey, config.previousSecretsKeys), {
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    timeouts: config.databaseTimeouts,
    writers: config.databaseWriters,
    migrate: config.migrateOnStart,
    ...options,
  });
  config.developmentKey?.save();
  return store;
}
