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
