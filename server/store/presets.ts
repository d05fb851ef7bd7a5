// Presets and their versions. Reads return domain models (a version's config parsed).
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { type NewPresetVersion, PAGE_CHARACTER_BUDGET, type Preset, type PresetVersion } from '../domain/presets.js';
import { preparedQuery, type QueryDriver } from './prepared.js';
import type { Database } from './tables.js';

export function presetStore(db: Kysely<Database>, driver: QueryDriver) {
  const bySlug = preparedQuery(driver, (a: { workspaceId: string; slug: string }) =>
    db
      .selectFrom('presets')
      .select(['id', 'slug', 'version_count'])
      .where('workspace_id', '=', a.workspaceId)
      .where('slug', '=', a.slug),
  );
  // A page is the largest read here: its rows come as arrays, and preset_id, the same for all, stays out.
  // Its last version is the last of the first `limit` whose characters before it (configs and
  // system prompts) are within the budget: only the sizes of those rows are read for it, and only
  // the rows that fit are read in full.
  const page = preparedQuery(
    driver,
    (a: { presetId: string; offset: number; limit: number; budget: number }) =>
      db
        .selectFrom('preset_versions')
        .select(['id', 'version', 'config', 'system_prompt', 'creator_id', 'created_at', 'updated_at'])
        .where('preset_id', '=', a.presetId)
        .where('version', '>', a.offset)
        .where('version', '<=', (eb) =>
          eb
            .selectFrom(
              eb
                .selectFrom(
                  eb
                    .selectFrom('preset_versions')
                    .select(['version', sql<number>`length(config) + coalesce(length(system_prompt), 0)`.as('size')])
                    .where('preset_id', '=', a.presetId)
                    .where('version', '>', a.offset)
                    .orderBy('version', 'asc')
                    .limit(a.limit)
                    .as('first_rows'),
                )
                .select(['version', sql<number>`sum(size) over (order by version) - size`.as('before')])
                .as('sized'),
            )
            .select((inner) => inner.fn.max('version').as('last'))
            .where('before', '<', a.budget),
        )
        .orderBy('version', 'asc'),
    'arrays',
  );
  type PageColumns = [string, number, string, string | null, string, string, string];

  return {
    async findBySlug(workspaceId: string, slug: string): Promise<Preset | undefined> {
      return (await bySlug({ workspaceId, slug }))[0];
    },

    /**
     * One page, in version order: at most `limit` versions, ending where PAGE_CHARACTER_BUDGET
     * says. Versions are numbered 1..version_count with no gap, so skipping `offset` versions is
     * an index seek to `version > offset`, whatever the offset.
     */
    async pageOfVersions(
      presetId: string,
      offset: number,
      limit: number,
      budget = PAGE_CHARACTER_BUDGET,
    ): Promise<PresetVersion[]> {
      return (await page({ presetId, offset, limit, budget })).map((columns) => {
        const [id, version, config, system_prompt, creator_id, created_at, updated_at] = columns as PageColumns;
        return {
          id,
          preset_id: presetId,
          version,
          config: JSON.parse(config) as PresetVersion['config'],
          system_prompt,
          creator_id,
          created_at,
          updated_at,
        };
      });
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
