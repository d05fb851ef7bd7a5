// The store that a configuration names, opened for the server or the command line.
import type { Config } from './config.js';
import { createSecretBox } from './domain/secrets.js';
import { checkSecretsKeys } from './secrets-check.js';
import { openStore, type Store, type StoreOptions } from './store/store.js';

export interface ConfiguredStoreOptions extends StoreOptions {
  /**
   * Whether the keys must open the stored secrets before the store is returned (secrets-check.ts):
   * true unless said, for the server and the commands that read or write secrets.
   */
  checkSecrets?: boolean;
}

/**
 * The configuration's store, opened with its secrets keys. A development key made for the database
 * is saved only once the database has opened and the key opens what it holds: a start that fails
 * leaves no key behind for it. Whether or not asked, a key about to be saved is checked first.
 */
export async function openConfiguredStore(
  config: Config,
  { checkSecrets = true, ...options }: ConfiguredStoreOptions = {},
): Promise<Store> {
  const store = await openStore(config.databaseUrl, createSecretBox(config.secretsKey, config.previousSecretsKeys), {
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    timeouts: config.databaseTimeouts,
    writers: config.databaseWriters,
    migrate: config.migrateOnStart,
    ...options,
  });
  if (checkSecrets || config.developmentKey) {
    try {
      await checkSecretsKeys(store, config);
    } catch (err) {
      await store.close();
      throw err;
    }
  }
  config.developmentKey?.save();
  return store;
}
