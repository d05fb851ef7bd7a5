// Brings a database's schema up to this release's migrations, and decides whether this release can
// run on what the database holds. Migrations are the modules of migrations/, applied in the order of
// their names by Kysely's Migrator. Within a major version a migration only adds (expand): a release
// runs on a database that a newer release migrated, since the migrations it does not know only add
// what it never reads. A migration that removes or changes what an older release reads (contract)
// says so in its name (`NNNN_contract_<what>`); an older release refuses such a database.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, type MigrationResultSet, Migrator, sql } from 'kysely';
import type { Database } from './tables.js';

/** Kysely's own table of the migrations it applied, by name. */
const MIGRATION_TABLE = 'kysely_migration';
const MIGRATIONS_FOLDER = new URL('./migrations/', import.meta.url);
/** A migration's module: its name, then `.ts` in the sources, `.js` once built. */
const MIGRATION_FILE = /^(\d{4}_[a-z0-9_]+)\.(?:ts|js)$/;

export type MigrationKind = 'expand' | 'contract';

/** A migration's kind, as its name says it: `NNNN_contract_<what>` removes or changes; any other only adds. */
export function migrationKind(name: string): MigrationKind {
  return /^\d+_contract_/.test(name) ? 'contract' : 'expand';
}

/** What this release cannot run on, or cannot do to the database, in one line naming the migration. */
export class MigrationRefusal extends Error {
  override name = 'MigrationRefusal';
}

let loaded: Promise<Record<string, Migration>> | undefined;

/** This release's migrations, by name. */
export function releaseMigrations(): Promise<Record<string, Migration>> {
  loaded ??= (async () => {
    const files = readdirSync(fileURLToPath(MIGRATIONS_FOLDER)).map((file) => MIGRATION_FILE.exec(file));
    const names = files.filter((match): match is RegExpExecArray => match !== null);
    // By code unit, as Kysely orders them and as planMigrations compares them.
    names.sort((a, b) => ((a[1] as string) < (b[1] as string) ? -1 : 1));
    const entries = await Promise.all(
      names.map(async ([file, name]) => {
        const module = (await import(new URL(file, MIGRATIONS_FOLDER).href)) as Migration;
        return [name as string, { up: module.up }] as const;
      }),
    );
    return Object.fromEntries(entries);
  })();
  return loaded;
}

/** The names of the migrations applied to the database, in order; none when it has never been migrated. */
export async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === MIGRATION_TABLE)) return [];
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)} order by name`.execute(
    db,
  );
  return rows.map((row) => row.name);
}

export interface MigrationPlan {
  /** This release's migrations the database lacks, in order. */
  pending: string[];
  /** Migrations the database holds that this release does not know (a newer release's), all expand. */
  newer: string[];
}

/**
 * What migrating would do, or the refusal: a contract migration this release does not know, or a
 * migration of its own that would come before one it does not know.
 */
export function planMigrations(known: readonly string[], applied: readonly string[]): MigrationPlan {
  const newer = applied.filter((name) => !known.includes(name));
  const contract = newer.find((name) => migrationKind(name) === 'contract');
  if (contract)
    throw new MigrationRefusal(
      `The database holds migration ${contract}, a contract migration this release does not know: it removes or changes what this release reads. Run the release that applied it, or a later one.`,
    );
  const pending = known.filter((name) => !applied.includes(name));
  const latest = newer.at(-1);
  if (latest !== undefined) {
    const early = pending.find((name) => name < latest);
    if (early !== undefined)
      throw new MigrationRefusal(
        `This release's migration ${early} cannot be applied: the database already holds ${latest}, a later migration this release does not know. Run the release that applied it, or a later one.`,
      );
  }
  return { pending, newer };
}

/** What migrating the database would do; refuses (MigrationRefusal) a database this release cannot run on. */
export async function migrationPlan(db: Kysely<Database>): Promise<MigrationPlan> {
  return planMigrations(Object.keys(await releaseMigrations()), await appliedMigrations(db));
}

/** Kysely's view of the migrations: this release's, and for each newer one applied, a stand-in never run. */
class ReleaseMigrationProvider implements MigrationProvider {
  constructor(
    private readonly own: Record<string, Migration>,
    private readonly newer: readonly string[],
  ) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    // A newer release's migration is applied already, so Kysely never runs its stand-in.
    const standIns = this.newer.map((name) => [
      name,
      {
        up: async () => {
          throw new MigrationRefusal(`migration ${name} is not this release's; it was applied by a newer one`);
        },
      },
    ]);
    return { ...this.own, ...Object.fromEntries(standIns) };
  }
}

/** The migrations applied: without an error, Kysely reports every migration it ran a success. */
function resultOf({ error, results = [] }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results.map((result) => result.migrationName);
}

export interface MigrateOptions {
  /**
   * False: apply nothing, and refuse a database that lacks one of this release's migrations (an
   * instance that starts without migrating, after `npm run migrate`).
   */
  apply?: boolean;
}

/**
 * Applies this release's migrations the database lacks, and resolves to their names; refuses
 * (MigrationRefusal) a database this release cannot run on. A database that a newer release
 * migrated with expand migrations only is left as it is.
 */
export async function migrateToLatest(db: Kysely<Database>, { apply = true }: MigrateOptions = {}): Promise<string[]> {
  const own = await releaseMigrations();
  const { pending, newer } = await migrationPlan(db);
  if (pending.length === 0) return [];
  if (!apply)
    throw new MigrationRefusal(
      `The database lacks migration ${pending.join(', ')} of this release, and MIGRATE_ON_START is false: run \`npm run migrate\` (or \`node dist/server/cli.js migrate\`) first.`,
    );
  return resultOf(await new Migrator({ db, provider: new ReleaseMigrationProvider(own, newer) }).migrateToLatest());
}
