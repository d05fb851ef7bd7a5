// Which keys the destinations' secrets are sealed under, and whether the store's keys open them:
// one grouped query for the key ids with a sample each, then one decryption per key id, however
// many rows there are.
import { type Kysely, sql } from 'kysely';
import { type SecretBox, UnreadableSecretError } from '../domain/secrets.js';
import type { Database } from './tables.js';

export interface SealedKeys {
  /** The key ids the stored secrets name, in order. */
  sealedUnder: string[];
  /** Those of them whose sample the store's keys do not open. */
  unopened: string[];
}

/** `v1.<key id>.…`: the key id is the 8 characters after the version and its dot. */
const keyIdOf = sql<string>`substr(config_sealed, 4, 8)`;

export async function readSealedKeys(db: Kysely<Database>, secrets: SecretBox): Promise<SealedKeys> {
  const rows = await db
    .selectFrom('destinations')
    .select([keyIdOf.as('key_id'), (eb) => eb.fn.min('config_sealed').as('sample')])
    .groupBy(keyIdOf)
    .orderBy('key_id')
    .execute();
  const unopened = rows
    .filter(({ sample }) => {
      try {
        secrets.open(sample);
        return false;
      } catch (err) {
        // Anything else (a value in no format this release knows) is not a matter of keys.
        if (err instanceof UnreadableSecretError) return true;
        throw err;
      }
    })
    .map((row) => row.key_id);
  return { sealedUnder: rows.map((row) => row.key_id), unopened };
}
