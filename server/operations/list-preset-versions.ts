// listPresetVersions: one page of the versions of a preset of the caller's workspace, its JSON
// made by the database in the statement that reads it (store/presets.ts), with its entity tag;
// 304 to an If-None-Match that holds it.
import type { operations } from '../../generated/api.js';
import { ifNoneMatchSatisfied, presetPageEtag } from '../domain/etag.js';
import { PAGE_CHARACTER_BUDGET } from '../domain/preset-versions.js';
import { HttpError } from '../http/errors.js';
import { filledByValidator } from './filled-by-validator.js';
import { JsonText } from './json-text.js';
import type { Handler } from './types.js';

type PageBody = operations['listPresetVersions']['responses'][200]['content']['application/json'];

const NOT_FOUND = 'No preset with this slug in your workspace.';

export const listPresetVersions: Handler<'listPresetVersions'> = async (
  { path, query, headers, caller, trace },
  { store, contractVersion },
) => {
  // An empty offset (`offset=`) is null, which the spec says counts as 0.
  const offset = query?.offset ?? 0;
  const limit = filledByValidator(query?.limit, 'limit');
  const tagOf = (presetId: string, versionCount: number) =>
    presetPageEtag({ contractVersion, presetId, versionCount, offset, limit, budget: PAGE_CHARACTER_BUDGET });
  const ifNoneMatch = headers?.['If-None-Match'];
  if (ifNoneMatch !== undefined) {
    // The preset alone says whether the page is still the one the client has: no page is read for a 304.
    const preset = await store.presets.findBySlug(caller.workspaceId, path.slug, trace);
    if (!preset) throw new HttpError(404, NOT_FOUND);
    const etag = tagOf(preset.id, preset.version_count);
    if (ifNoneMatchSatisfied(ifNoneMatch, etag)) return { status: 304, headers: { ETag: etag } };
  }
  const page = await store.presets.pageOfVersions(caller.workspaceId, path.slug, offset, limit, { trace });
  if (!page) throw new HttpError(404, NOT_FOUND);
  return {
    status: 200,
    body: new JsonText<PageBody>(`{"data":${page.versionsJson},"total_count":${page.totalCount}}`),
    headers: { ETag: tagOf(page.presetId, page.totalCount) },
  };
};
