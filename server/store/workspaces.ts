import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Database, WORKSPACE_COLUMNS, type WorkspacesTable } from './tables.js';

export function workspaceStore(db: Kysely<Database>) {
  return {
    async create(name: string, now: Date): Promise<WorkspacesTable> {
      const row = { id: randomUUID(), name, created_at: now.toISOString() };
      await db.insertInto('workspaces').values(row).execute();
      return row;
    },

    async exists(id: string): Promise<boolean> {
      const row = await db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst();
      return row !== undefined;
    },

    async list(): Promise<WorkspacesTable[]> {
      return db.selectFrom('workspaces').select(WORKSPACE_COLUMNS).orderBy('created_at').execute();
    },

    async count(): Promise<number> {
      const { count } = await db
        .selectFrom('workspaces')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(count);
    },
  };
}
