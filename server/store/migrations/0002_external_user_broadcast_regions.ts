// Contract 2.2.0. Each column has the value a row written before it must show (openapi.yaml says
// these defaults), so that every existing key and destination stays valid as it is read.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('external_user', 'text').execute();
  for (const column of [
    'broadcast_generation_cost',
    'broadcast_generation_identity',
    'broadcast_generation_request_context',
  ]) {
    await db.schema
      .alterTable('destinations')
      .addColumn(column, 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();
  }
  // JSON text, as api_key_hashes: the list as the API returns it.
  await db.schema
    .alterTable('destinations')
    .addColumn('regions', 'text', (c) => c.notNull().defaultTo('["global"]'))
    .execute();
}
