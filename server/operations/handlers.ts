// The handler of every operation of openapi.yaml, by operationId. createApp mounts each at the
// path and method the spec gives it; a spec operation without a handler here, or a handler here
// without an operation in the spec, stops the server at start.
import { getKey } from './get-key.js';
import { listPresetVersions } from './list-preset-versions.js';
import type { OperationHandlers } from './types.js';
import { updateObservabilityDestination } from './update-observability-destination.js';

export const operationHandlers = {
  getKey,
  updateObservabilityDestination,
  listPresetVersions,
} satisfies OperationHandlers;
