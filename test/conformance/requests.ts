// What the state properties send: valid update bodies of a destination's type, and bodies with
// text no database stores; and this suite's fixture as the conformance command's generators take it.
import fc from 'fast-check';
import {
  arbitraryFor,
  configOverrides,
  configSchemaName,
  partialOf,
  semanticRules,
} from '../../scripts/conformance/generate/arbitraries.js';
import type { Fixture as KnownObjects } from '../../scripts/conformance/generate/requests.js';

export interface Fixture {
  keyHashes: string[];
  destinations: { id: string; type: string }[];
  presetSlugs: string[];
}

/** The fixture as the conformance command's generators know a deployment: known path values by operation. */
export function knownObjects(fixture: Fixture): KnownObjects {
  return {
    getKey: { hash: fixture.keyHashes.map((value) => ({ value })) },
    updateObservabilityDestination: {
      id: fixture.destinations.map(({ id, type }) => ({ value: id, overrides: configOverrides(type) })),
    },
    listPresetVersions: { slug: fixture.presetSlugs.map((value) => ({ value })) },
  };
}

export interface GeneratedRequest {
  method: 'GET' | 'PATCH';
  path: string;
  /** A JSON body, sent as is (already serialised, so that odd values survive). */
  body?: string;
  /** Statuses the contract allows for this request. */
  expected: number[];
  /** For a broken body or query: the field the error envelope must name. */
  errorPath?: string;
  /** The component schema a 2xx body must match. */
  successSchema: 'ApiKeyResponse' | 'ObservabilityDestinationResponse' | 'PresetVersionList';
}

/** A valid update body for a destination of the given type, from the update schema and the type's config schema. */
export function validUpdateBody(type: string): fc.Arbitrary<Record<string, unknown>> {
  return arbitraryFor(
    { $ref: '#/components/schemas/ObservabilityDestinationUpdate' },
    {
      secret: semanticRules.secret,
      overrides: {
        DestinationConfigUpdate: arbitraryFor(partialOf(configSchemaName(type)), { secret: semanticRules.secret }),
      },
    },
  ) as fc.Arbitrary<Record<string, unknown>>;
}

const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * A body with one of its strings (a value or an object key, at any depth) replaced by `bad`, and
 * where that string is; `choice` picks which. A body without strings gets a name.
 */
export function withUnstorableText(body: unknown, choice: number, bad: string): { body: unknown; errorPath: string } {
  const copy = structuredClone(body);
  const places: { path: string; put: () => void }[] = [];
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      value.forEach((member, index) => {
        if (typeof member === 'string') places.push({ path: `${path}/${index}`, put: () => (value[index] = bad) });
        else visit(member, `${path}/${index}`);
      });
    } else if (typeof value === 'object' && value !== null) {
      const object = value as Record<string, unknown>;
      for (const [key, member] of Object.entries(object)) {
        const at = `${path}/${escapePointer(key)}`;
        places.push({
          path: `${path}/${escapePointer(bad)}`,
          put: () => {
            delete object[key];
            object[bad] = member;
          },
        });
        if (typeof member === 'string') places.push({ path: at, put: () => (object[key] = bad) });
        else visit(member, at);
      }
    }
  };
  visit(copy, '/body');
  const place = places[choice % Math.max(places.length, 1)];
  if (!place) return { body: { ...(copy as object), name: bad }, errorPath: '/body/name' };
  place.put();
  return { body: copy, errorPath: place.path };
}

/** A valid body with one string no database can store as sent, and the field the 400 must name. */
export function unstorableBody(type: string): fc.Arbitrary<{ body: unknown; errorPath: string }> {
  return fc
    .tuple(validUpdateBody(type), fc.nat(), semanticRules.unstorable)
    .map(([body, choice, bad]) => withUnstorableText(body, choice, bad));
}
