// listPresetVersions: one page of the versions of a preset of the caller's workspace, its JSON
// made by the database in the statement that reads it (store/presets.ts).
import type { operations } from '../../generated/api.js';
import { HttpError } from '../http/errors.js';
import { filledByValidator } from './filled-by-validator.js';
import { JsonText } from './json-text.js';
import type { Handler } from './types.js';

type PageBody = operations['listPresetVersions']['responses'][200]['content']['application/json'];

export const listPresetVersions: Handler<'listPresetVersions'> = async ({ path, query, caller }, { store }) => {
  // An empty offset (`offset=`) is null, which the spec says counts as 0.
  const offset = query?.offset ?? 0;
  const limit = filledByValidator(query?.limit, 'limit');
  const page = await store.presets.pageOfVersions(caller.workspaceId, path.slug, offset, limit);
  if (!page) throw new HttpError(404, 'No preset with this slug in your workspace.');
  return {
    status: 200,
    body: new JsonText<PageBody>(`{"data":${page.versionsJson},"total_count":${page.totalCount}}`),
  };
};
