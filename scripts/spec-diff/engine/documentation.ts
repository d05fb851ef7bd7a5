// The documentation of a contract compared: what readers of the docs see and generated code and
// clients do not, listed so that an edit of the docs is never reported as no change at all.
import { HTTP_METHODS } from '../../../server/spec.js';
import { type Change, Findings } from './findings.js';

// What only documents the contract: readers of the docs see it, generated code and clients do not.
const DOCUMENTATION_KEYS = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs']);
// Extensions that are part of the contract, compared above.
const CONTRACT_EXTENSIONS = new Set(['x-sunset', 'x-stability-level', 'x-extensible-enum']);
// Objects whose keys are names (a property called `description` is a property, not documentation).
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'paths',
  'schemas',
  'responses',
  'parameters',
  'headers',
  'securitySchemes',
  'requestBodies',
  'links',
  'callbacks',
  'content',
  'variables',
  'mapping',
]);
const isDocumentation = (key: string, parent: string | undefined) =>
  !NAME_MAPS.has(parent ?? '') &&
  (DOCUMENTATION_KEYS.has(key) || (key.startsWith('x-') && !CONTRACT_EXTENSIONS.has(key)));

/**
 * Every documentation-only change between two documents, compared as written ($refs not followed,
 * so that a shared schema's description is listed once): listed so that an edit of the docs is
 * never reported as no change at all.
 */
export function documentationChanges(before: unknown, after: unknown, where: string[] = []): Change[] {
  const findings = new Findings();
  collectDocumentationChanges(before, after, where, findings);
  return findings.changes;
}

/** `GET /keys/{hash}` for a place inside an operation (paths, path, method, ...). */
function operationOf(path: string[]): string | undefined {
  const [root, route, method] = path;
  return root === 'paths' && route && method && (HTTP_METHODS as readonly string[]).includes(method)
    ? `${method.toUpperCase()} ${route}`
    : undefined;
}

function collectDocumentationChanges(before: unknown, after: unknown, where: string[], findings: Findings): void {
  if (typeof before !== 'object' || before === null || typeof after !== 'object' || after === null) return;
  const [a, b] = [before as Record<string, unknown>, after as Record<string, unknown>];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const path = [...where, key];
    if (!Array.isArray(before) && isDocumentation(key, where.at(-1))) {
      if (JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
      const what = !(key in a) ? 'added' : !(key in b) ? 'removed' : 'changed';
      findings.add('project-documentation-changed', operationOf(path), path.join(' '), `documentation ${what}: ${key}`);
    } else if (key in a && key in b) collectDocumentationChanges(a[key], b[key], path, findings);
  }
}
