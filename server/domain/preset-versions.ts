// Presets: named bundles of configuration, stored as numbered versions.
import type { components } from '../../generated/api.js';

export type PresetVersion = components['schemas']['PresetVersion'];
export type NewPresetVersion = Pick<PresetVersion, 'config' | 'system_prompt' | 'creator_id'>;

/** A preset of a workspace; its versions are numbered 1..version_count with no gap. */
export interface Preset {
  id: string;
  slug: string;
  version_count: number;
}

/** The longest config of a version, in characters of its JSON (openapi.yaml, PresetConfig). */
export const MAX_CONFIG_JSON_LENGTH = 100_000;

/**
 * A page of versions ends before the version that would take the characters of its configs (as
 * JSON) and system prompts past this budget; its first version is there whatever its size
 * (openapi.yaml, listPresetVersions). So the largest page is bounded in bytes, whatever `limit`.
 */
export const PAGE_CHARACTER_BUDGET = 1_000_000;
