// The releases of the official OpenRouter TypeScript SDK the tests drive the server with, each
// installed unmodified under an alias (package.json), and what each one predates of openapi.yaml.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as sdk126 from 'openrouter-sdk-1-2-6';
import * as models126 from 'openrouter-sdk-1-2-6/models';
import * as errors126 from 'openrouter-sdk-1-2-6/models/errors';
import * as operations126 from 'openrouter-sdk-1-2-6/models/operations';
import * as sdk1319 from 'openrouter-sdk-1-3-19';
import * as models1319 from 'openrouter-sdk-1-3-19/models';
import * as errors1319 from 'openrouter-sdk-1-3-19/models/errors';
import * as operations1319 from 'openrouter-sdk-1-3-19/models/operations';

/** The schemas of openapi.yaml held to a model of the SDK. */
export type ContractModel = 'ApiKey' | 'ObservabilityDestination' | 'ObservabilityDestinationUpdate' | 'PresetVersion';

type UpdateBody = models1319.UpdateObservabilityDestinationRequest;

export interface SdkRelease {
  /** The release, as its alias in package.json names it. */
  version: string;
  /** The version in the installed package's own package.json. */
  installedVersion: string;
  /**
   * The SDK's entry. Both releases are typed as the later one, whose types are the earlier one's
   * with fields added: what a test sends through the earlier one is made of the fields it has
   * (`updateBody`), since it drops the others before sending.
   */
  module: typeof sdk1319;
  models: Record<string, unknown>;
  operationModels: Record<string, unknown>;
  errors: typeof errors1319;
  /**
   * The properties of each schema of openapi.yaml that this release's models lack: the fields the
   * contract took from the live API after the release. A newer release that moves a field makes
   * test/contract/official-sdk-models.test.ts name it.
   */
  lacks: Record<ContractModel, readonly string[]>;
  /** A PATCH body of every field this release sends, for a destination of the type. */
  updateBody: (type: string) => UpdateBody;
}

function installedVersion(alias: string): string {
  const entry = createRequire(import.meta.url).resolve(alias);
  // The entry is <package>/esm/index.js.
  const manifest = join(dirname(dirname(entry)), 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

const FIELDS_OF_2_2_0 = {
  ApiKey: ['external_user'],
  ObservabilityDestination: [
    'broadcast_generation_cost',
    'broadcast_generation_identity',
    'broadcast_generation_request_context',
    'regions',
  ],
} as const;

/** The fields both releases send, with values that change the destination. */
const commonUpdate = (type: string): UpdateBody => ({
  name: `Updated ${type}`,
  enabled: false,
  privacyMode: true,
  samplingRate: 0.5,
  apiKeyHashes: ['cc11728ca6cd47497c5267117fcc2ebcfc3f3d9df55d54c191a4fdb06e178232'],
  filterRules: { enabled: true, groups: [{ logic: 'and', rules: [{ field: 'model', operator: 'exists' }] }] },
});

export const RELEASES: readonly SdkRelease[] = [
  {
    version: '1.2.6',
    installedVersion: installedVersion('openrouter-sdk-1-2-6'),
    module: sdk126 as unknown as typeof sdk1319,
    models: models126,
    operationModels: operations126,
    errors: errors126 as unknown as typeof errors1319,
    lacks: {
      ApiKey: FIELDS_OF_2_2_0.ApiKey,
      ObservabilityDestination: FIELDS_OF_2_2_0.ObservabilityDestination,
      ObservabilityDestinationUpdate: FIELDS_OF_2_2_0.ObservabilityDestination,
      PresetVersion: [],
    },
    updateBody: commonUpdate,
  },
  {
    version: '1.3.19',
    installedVersion: installedVersion('openrouter-sdk-1-3-19'),
    module: sdk1319,
    models: models1319,
    operationModels: operations1319,
    errors: errors1319,
    lacks: { ApiKey: [], ObservabilityDestination: [], ObservabilityDestinationUpdate: [], PresetVersion: [] },
    updateBody: (type) => ({
      ...commonUpdate(type),
      broadcastGenerationCost: true,
      broadcastGenerationIdentity: true,
      broadcastGenerationRequestContext: true,
      // `eu` is the SDK's other name for `europe`: the server stores europe.
      regions: ['us', 'eu'],
    }),
  },
];

/** The names of the SDK's error classes. */
export type SdkErrorClass = keyof typeof errors1319;

/** The release's error class of that name. */
export function sdkErrorClass(release: SdkRelease, name: SdkErrorClass) {
  return release.errors[name] as abstract new (
    ...args: never[]
  ) => errors1319.OpenRouterError;
}
