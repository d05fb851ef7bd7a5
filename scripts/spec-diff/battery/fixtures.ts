// The battery of oasdiff's own fixtures: pairs written after those its checker tests load
// (oasdiff v1.28.0, data/checker and the folders beside it), grouped by what they change, each with
// the rule ids its test asserts. fixtures-kit.ts says how they are graded.
import { compositionFixtures } from './fixtures-composition.js';
import { keywordFixtures } from './fixtures-keywords.js';
import type { FixturePair } from './fixtures-kit.js';
import { operationFixtures } from './fixtures-operations.js';
import { schemaFixtures } from './fixtures-schemas.js';

export const FIXTURES: FixturePair[] = [
  ...compositionFixtures,
  ...schemaFixtures,
  ...operationFixtures,
  ...keywordFixtures,
];
