// openapi.yaml against the models of each release of the official SDK the server is tested with
// (test/support/official-sdk.ts): the fields of an API key, a destination (each of its types, and
// its update) and a preset version, by name and JSON type, read from the SDK's own schemas; the
// keys of each type's config, and which are required; the destination types and data regions.
// A field in one and not the other fails, naming it, unless the release is said to predate it:
// when a new release of the SDK moves a field, this is the test that says which.
import { describe, expect, it } from 'vitest';
import { nodeAt } from '../../server/spec.js';
import { type ContractModel, RELEASES, type SdkRelease } from '../support/official-sdk.js';
import { resolveRef, spec } from '../support/spec.js';

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  'x-destination-type'?: string;
}

/** The JSON types a schema takes, `integer` counted as `number`: `null|string`. */
function jsonTypes(schema: JsonSchema): string {
  const types = new Set<string>();
  const visit = (node: JsonSchema) => {
    const resolved = resolveRef(node);
    for (const type of [resolved.type ?? []].flat()) types.add(type === 'integer' ? 'number' : type);
    if (resolved.type === undefined && resolved.const !== undefined)
      types.add(resolved.const === null ? 'null' : typeof resolved.const);
    for (const alternative of [...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])]) visit(alternative);
  };
  visit(schema);
  return [...types].sort().join('|');
}

interface Fields {
  types: Record<string, string>;
  required: string[];
}

function fieldsOf(schema: JsonSchema, rename: (name: string) => string = (name) => name): Fields {
  const resolved = resolveRef(schema);
  return {
    types: Object.fromEntries(
      Object.entries(resolved.properties ?? {}).map(([name, property]) => [rename(name), jsonTypes(property)]),
    ),
    required: (resolved.required ?? []).map(rename).sort(),
  };
}

const contractSchema = (name: string) => nodeAt(spec, `#/components/schemas/${name}`) as JsonSchema;

/** A zod schema of the SDK as JSON Schema, as a client sends it (io: input): what it reads off the wire. */
function sdkSchema(module: Record<string, unknown>, name: string): JsonSchema {
  const schema = module[name] as { toJSONSchema(params: object): JsonSchema } | undefined;
  if (!schema) throw new Error(`the SDK has no ${name}`);
  return schema.toJSONSchema({ io: 'input', unrepresentable: 'any' });
}

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The destination types of openapi.yaml, with their config schemas. */
const configSchemas = Object.entries(spec.components?.schemas ?? {}).flatMap(([name, schema]) => {
  const type = (schema as JsonSchema)['x-destination-type'];
  return type ? [{ type, name }] : [];
});
const destinationTypes = (contractSchema('DestinationType').enum ?? []) as string[];

/** The SDK's model of a destination of one type: `ObservabilityOtelCollectorDestination` for otel-collector. */
const sdkDestinationModel = (type: string) =>
  `Observability${type.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase())}Destination`;

/** The models of the SDK for a schema of openapi.yaml, and how their field names are written on the wire. */
function sdkModels(release: SdkRelease, model: ContractModel): { label: string; fields: Fields }[] {
  switch (model) {
    case 'ApiKey':
      return [
        { label: 'GetKeyData', fields: fieldsOf(sdkSchema(release.operationModels, 'GetKeyData$inboundSchema')) },
      ];
    case 'PresetVersion':
      return [
        {
          label: 'PresetDesignatedVersion',
          fields: fieldsOf(sdkSchema(release.models, 'PresetDesignatedVersion$inboundSchema')),
        },
      ];
    case 'ObservabilityDestination':
      return destinationTypes.map((type) => ({
        label: sdkDestinationModel(type),
        fields: fieldsOf(sdkSchema(release.models, `${sdkDestinationModel(type)}$inboundSchema`)),
      }));
    case 'ObservabilityDestinationUpdate':
      // The SDK's request model is written in camelCase and sent in snake_case.
      return [
        {
          label: 'UpdateObservabilityDestinationRequest',
          fields: fieldsOf(sdkSchema(release.models, 'UpdateObservabilityDestinationRequest$outboundSchema'), snake),
        },
      ];
  }
}

const MODELS: ContractModel[] = [
  'ApiKey',
  'ObservabilityDestination',
  'ObservabilityDestinationUpdate',
  'PresetVersion',
];

describe.each(RELEASES.map((release) => [release.version, release] as const))(
  '@openrouter/sdk %s',
  (_version, release) => {
    describe.each(MODELS)('%s', (model) => {
      const contract = fieldsOf(contractSchema(model));
      const lacks = release.lacks[model];

      it.each(sdkModels(release, model).map(({ label, fields }) => [label, fields] as const))(
        'has the fields of the SDK model %s, by name and JSON type, but those the release predates',
        (_label, sdk) => {
          const onlyInContract = Object.keys(contract.types).filter((name) => !(name in sdk.types));
          const onlyInSdk = Object.keys(sdk.types).filter((name) => !(name in contract.types));
          expect({ onlyInContract: onlyInContract.sort(), onlyInSdk }).toEqual({
            onlyInContract: [...lacks].sort(),
            onlyInSdk: [],
          });
          const shared = Object.keys(sdk.types).filter((name) => name in contract.types);
          expect(Object.fromEntries(shared.map((name) => [name, contract.types[name]]))).toEqual(
            Object.fromEntries(shared.map((name) => [name, sdk.types[name]])),
          );
          // An answer without a field the SDK requires fails its validation.
          if (model !== 'ObservabilityDestinationUpdate')
            expect(
              sdk.required.filter((name) => !contract.required.includes(name)),
              `${model}: fields the SDK requires and the contract does not`,
            ).toEqual([]);
        },
      );
    });

    it('knows the destination types of openapi.yaml, and no other', () => {
      const known = destinationTypes.filter((type) => `${sdkDestinationModel(type)}$inboundSchema` in release.models);
      expect(known).toEqual(destinationTypes);
      expect(configSchemas.map(({ type }) => type).sort()).toEqual([...destinationTypes].sort());
    });

    it.each(configSchemas.map(({ type, name }) => [type, name] as const))(
      'has the config keys of a %s destination, the required ones required, each a string or an object alike',
      (type, name) => {
        const sdk = fieldsOf(sdkSchema(release.models, `${sdkDestinationModel(type)}Config$inboundSchema`));
        const contract = fieldsOf(contractSchema(name));
        expect(contract.types).toEqual(sdk.types);
        // The SDK fills in a default for some keys the contract leaves optional, which it then reads as optional too.
        expect(contract.required).toEqual(sdk.required);
      },
    );
  },
);

describe('the data regions', () => {
  const [, current] = RELEASES;
  const values = (name: string) => Object.values(current?.models[name] as Record<string, string>).sort();

  it('are the SDK 1.3.19 regions, in answers and in updates (where eu is europe)', () => {
    expect(values('ObservabilityDataRegion')).toEqual([...(contractSchema('DataRegion').enum ?? [])].sort());
    expect(values('ObservabilityDataRegionInput')).toEqual(
      [...(contractSchema('DataRegionListUpdate').items?.enum ?? [])].sort(),
    );
  });
});
