// The contract as the console offers it (openapi.yaml stays as written): the same operations,
// parameters and examples, but no example for If-Match. Its only value that can succeed is the ETag
// of the destination as it is now, which the console fills in from the last answer; the spec's
// example would make the first send a 412.
import { nodeAt, type OpenApiDocument, specOperations } from '../../../server/spec.js';

export const CONDITION_HEADER = 'If-Match';

export function consoleSpec(contract: OpenApiDocument): OpenApiDocument {
  const spec = structuredClone(contract);
  for (const { parameters } of specOperations(spec)) {
    for (const parameter of parameters) {
      if (parameter.in !== 'header' || parameter.name.toLowerCase() !== CONDITION_HEADER.toLowerCase()) continue;
      const written = nodeAt(spec, parameter.pointer) as { example?: unknown; examples?: unknown };
      delete written.example;
      delete written.examples;
    }
  }
  return spec;
}
