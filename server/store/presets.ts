// Presets and their versions. A page of versions is read as the JSON text the API answers with.
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import {
  type NewPresetVersion,
  PAGE_CHARACTER_BUDGET,
  type Preset,
  type PresetVersion,
} from '../domain/preset-versions.js';
import type { CallTrace } from './call-trace.js';
import type { DatabaseLocation } from './database.js';
import { argument, preparedQuery, type QueryDriver } from './prepared.js';
import { type Database, PRESET_VERSION_COLUMNS } from './tables.js';

type Dialect = DatabaseLocation['kind'];

/** A page of versions as its JSON text, and the count of all the preset's versions. */
export interface VersionsPage {
  /** The preset's id: with the count, what the page's entity tag is made of. */
  presetId: string;
  /** The JSON array of the page's versions, as openapi.yaml's PresetVersion describes each. */
  versionsJson: string;
  totalCount: number;
}

/**
 * The SQL of the page's JSON: each version an object whose keys come in PresetVersion's order, its
 * strings quoted by the database's own JSON function, its config the stored JSON text as it is.
 * No spaces: the text is what JSON.stringify gives for the same objects, on either database.
 */
function versionJsonSql(dialect: Dialect) {
  const quoted = (column: string) =>
    dialect === 'sqlite'
      ? sql`json_quote(${sql.ref(column)})`
      : sql`coalesce(to_json(${sql.ref(column)})::text, 'null')`;
  // The version is an integer, which `||` turns into text on either database.
  return sql<string>`'{"id":' || ${quoted('id')} || ',"preset_id":' || ${quoted('preset_id')} || ',"version":' || ${sql.ref('version')} || ',"config":' || ${sql.ref('config')} || ',"system_prompt":' || ${quoted('system_prompt')} || ',"creator_id":' || ${quoted('creator_id')} || ',"created_at":' || ${quoted('created_at')} || ',"updated_at":' || ${quoted('updated_at')} || '}'`;
}

/**
 * Characters of page JSON a process holds, its least recently used pages let go first. A page is
 * the same text for as long as its preset has the same versions (they never change once added).
 */
export const PAGES_HELD_CHARACTERS = 4_000_000;
/** Pages a process holds at most, however small. */
export const PAGES_HELD = 2000;

export function presetStore(db: Kysely<Database>, driver: QueryDriver, dialect: Dialect) {
  // By preset, version count, offset, limit and budget: the page's text is fixed by these alone.
  const pagesMade = new LRUCache<string, string>({
    max: PAGES_HELD,
    maxSize: PAGES_HELD_CHARACTERS,
    sizeCalculation: (json, key) => json.length + key.length,
  });
  const pageKey = (presetId: string, versionCount: number, offset: number, limit: number, budget: number) =>
    `${presetId} ${versionCount} ${offset} ${limit} ${budget}`;
  const bySlug = preparedQuery(
    driver,
    'presets.bySlug',
    { workspaceId: argument<string>(), slug: argument<string>() },
    (a) =>
      db
        .selectFrom('presets')
        .select(['id', 'slug', 'version_count'])
        .where('workspace_id', '=', a.workspaceId)
        .where('slug', '=', a.slug),
  );
  const joined = dialect === 'sqlite' ? sql`group_concat` : sql`string_agg`;
  // One statement, one pass over the page's rows: the preset by its slug, then the first `limit`
  // versions after `offset`, each with the characters (config and system prompt) of the versions
  // before it in the page; those within the budget are the page, joined into one JSON array.
  const page = preparedQuery(
    driver,
    'presets.page',
    {
      workspaceId: argument<string>(),
      slug: argument<string>(),
      offset: argument<number>(),
      limit: argument<number>(),
      budget: argument<number>(),
    },
    (a) =>
      db
        .selectFrom('presets as p')
        .select((eb) => [
          'p.id',
          'p.version_count',
          eb
            .selectFrom(
              eb
                .selectFrom(
                  eb
                    .selectFrom('preset_versions')
                    .select(PRESET_VERSION_COLUMNS)
                    .select(sql<number>`length(config) + coalesce(length(system_prompt), 0)`.as('size'))
                    .whereRef('preset_id', '=', 'p.id')
                    .where('version', '>', a.offset)
                    .orderBy('version', 'asc')
                    .limit(a.limit)
                    .as('first_rows'),
                )
                .select([...PRESET_VERSION_COLUMNS, 'size'])
                .select(sql<number>`sum(size) over (order by version) - size`.as('before'))
                .as('sized'),
            )
            .select(
              sql<string>`'[' || coalesce(${joined}(${versionJsonSql(dialect)}, ',' order by version), '') || ']'`.as(
                'versions',
              ),
            )
            .where('before', '<', a.budget)
            .$asScalar()
            .as('versions'),
        ])
        .where('p.workspace_id', '=', a.workspaceId)
        .where('p.slug', '=', a.slug),
  );

  return {
    async findBySlug(workspaceId: string, slug: string, trace?: CallTrace): Promise<Preset | undefined> {
      return (await bySlug({ workspaceId, slug }, trace))[0];
    },

    /**
     * One page of a preset of the workspace, in version order, as JSON text made by the database:
     * at most `limit` versions, ending where PAGE_CHARACTER_BUDGET says. Versions are numbered
     * 1..version_count with no gap, so skipping `offset` versions is an index seek to
     * `version > offset`, whatever the offset. Undefined when the workspace has no such preset.
     * The preset is read each time; a page its versions already made is not made again.
     */
    async pageOfVersions(
      workspaceId: string,
      slug: string,
      offset: number,
      limit: number,
      { budget = PAGE_CHARACTER_BUDGET, trace }: { budget?: number; trace?: CallTrace } = {},
    ): Promise<VersionsPage | undefined> {
      const [preset] = await bySlug({ workspaceId, slug }, trace);
      if (!preset) return undefined;
      const made = pagesMade.get(pageKey(preset.id, preset.version_count, offset, limit, budget));
      if (made !== undefined) return { presetId: preset.id, versionsJson: made, totalCount: preset.version_count };
      const [row] = await page({ workspaceId, slug, offset, limit, budget }, trace);
      if (!row) return undefined;
      // Under the count read with the page: a version added in between makes it another page. A page
      // past the end costs an index seek that finds nothing; it is not worth a place.
      if (row.versions !== '[]') pagesMade.set(pageKey(row.id, row.version_count, offset, limit, budget), row.versions);
      return { presetId: row.id, versionsJson: row.versions, totalCount: row.version_count };
    },

    /** Adds the next version of the preset (creating the preset on its first version). */
    async addVersion(
      workspaceId: string,
      slug: string,
      version: NewPresetVersion,
      now: Date,
      presetName = slug,
    ): Promise<PresetVersion> {
      return db.transaction().execute(async (trx) => {
        const at = now.toISOString();
        await trx
          .insertInto('presets')
          .values({
            id: randomUUID(),
            workspace_id: workspaceId,
            slug,
            name: presetName,
            version_count: 0,
            created_at: at,
          })
          .onConflict((oc) => oc.columns(['workspace_id', 'slug']).doNothing())
          .execute();
        const preset = await trx
          .updateTable('presets')
          .set((eb) => ({ version_count: eb('version_count', '+', 1) }))
          .where('workspace_id', '=', workspaceId)
          .where('slug', '=', slug)
          .returning(['id', 'version_count'])
          .executeTakeFirstOrThrow();
        const added: PresetVersion = {
          id: randomUUID(),
          preset_id: preset.id,
          version: preset.version_count,
          ...version,
          created_at: at,
          updated_at: at,
        };
        await trx
          .insertInto('preset_versions')
          .values({ ...added, config: JSON.stringify(added.config) })
          .execute();
        return added;
      });
    },
  };
}
