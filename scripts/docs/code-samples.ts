// A curl and a TypeScript sample for each operation, made from the spec's own examples: the path
// parameters' examples, the query parameters' examples, the first example of the request body.
// Each value that names a record can be given in the environment instead (the upper-cased
// parameter name: HASH, ID, SLUG), as can the server (API_URL) and the key (API_KEY): the samples
// run as written against any server. The docs show them (Redoc's x-codeSamples), built into the
// docs' copy of the spec only: openapi.yaml stays as written.
import { type OpenApiDocument, type SpecParameter, specOperations } from '../../server/spec.js';

export interface CodeSamples {
  curl: string;
  typescript: string;
}

/**
 * The tab of each sample. Redoc keys a sample by its label (its `lang` when it has none), lower-cased,
 * and shows it only when a language of its `codeSamples.languages` option has the same key; `lang`
 * picks the highlighting. The docs build makes that option from this table too (redoc-options.ts).
 */
export const sampleTabs = {
  curl: { lang: 'Shell', label: 'curl' },
  typescript: { lang: 'TypeScript', label: 'TypeScript client' },
} as const satisfies Record<keyof CodeSamples, { lang: string; label: string }>;

const DEFAULT_SERVER = 'http://127.0.0.1:3000';
const CLIENT_PACKAGE = '@keys-destinations-presets-api/client';

const envName = (parameter: SpecParameter) => parameter.name.replace(/\W+/g, '_').toUpperCase();
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const tsString = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** The base URL a reader's server answers on: the first server of the spec, on the default address. */
function apiUrl(spec: OpenApiDocument): string {
  const server = (spec.servers as { url?: string }[] | undefined)?.[0]?.url ?? '';
  return /^https?:/.test(server) ? server : `${DEFAULT_SERVER}${server}`;
}

function firstBodyExample(operation: { requestBody?: { content: Record<string, unknown> } }): unknown {
  const json = operation.requestBody?.content['application/json'] as
    | { example?: unknown; examples?: Record<string, { value: unknown }> }
    | undefined;
  if (!json) return undefined;
  return json.example ?? Object.values(json.examples ?? {})[0]?.value ?? {};
}

export function codeSamples(spec: OpenApiDocument): Map<string, CodeSamples> {
  const samples = new Map<string, CodeSamples>();
  for (const { method, template: path, operation, parameters } of specOperations(spec)) {
    const pathParameters = parameters.filter((p) => p.in === 'path');
    const query = parameters.filter((p) => p.in === 'query' && p.example !== undefined);
    const body = firstBodyExample(operation as never);

    const urlPath = pathParameters.reduce(
      (url, p) => url.replace(`{${p.name}}`, `\${${envName(p)}:-${String(p.example)}}`),
      path,
    );
    const queryString = query.map((p) => `${p.name}=${encodeURIComponent(String(p.example))}`).join('&');
    const curl = [
      `curl -s${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "\${API_URL:-${apiUrl(spec)}}${urlPath}${queryString ? `?${queryString}` : ''}"`,
      '  -H "Authorization: Bearer $API_KEY"',
      ...(body === undefined
        ? []
        : ["  -H 'Content-Type: application/json'", `  -d ${shellQuote(JSON.stringify(body))}`]),
    ].join(' \\\n');

    const args = [
      ...pathParameters.map((p) => `process.env.${envName(p)} ?? ${tsString(String(p.example))}`),
      ...(body === undefined ? [] : [JSON.stringify(body)]),
      ...(query.length > 0 ? [`{ ${query.map((p) => `${p.name}: ${JSON.stringify(p.example)}`).join(', ')} }`] : []),
    ];
    const typescript = [
      `import { createApiClient } from '${CLIENT_PACKAGE}';`,
      '',
      'const api = createApiClient({',
      `  baseUrl: process.env.API_URL ?? ${tsString(apiUrl(spec))},`,
      "  apiKey: process.env.API_KEY ?? '',",
      '});',
      `const result = await api.${operation.operationId}(${args.join(', ')});`,
      'console.log(JSON.stringify(result, null, 2));',
    ].join('\n');
    samples.set(operation.operationId, { curl, typescript });
  }
  return samples;
}

/** The spec with each operation's samples as Redoc's x-codeSamples, for the docs' copy only. */
export function withCodeSamples(spec: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(spec);
  const samples = codeSamples(spec);
  for (const { operation } of specOperations(copy)) {
    const sample = samples.get(operation.operationId);
    if (!sample) continue;
    (operation as unknown as Record<string, unknown>)['x-codeSamples'] = [
      { ...sampleTabs.curl, source: sample.curl },
      { ...sampleTabs.typescript, source: sample.typescript },
    ];
  }
  return copy;
}
