/// <reference lib="dom" />
// The console page: Swagger UI over the console's copy of the spec, with the console's plugins.
// Served by the API, it sends to its own origin (the spec's relative server URL); opened from a
// file, it first asks for the base URL of a server to send to. The key given to Authorize stays in
// Swagger UI's memory: persistAuthorization is off, so nothing writes it to storage.
import { keepAccessible, plainSummaryPathPlugin } from './accessibility.js';
import { type BodyValidator, bodyCheckPlugin } from './body-check.js';
import { etagPlugin } from './etag.js';
import { fieldErrorsPlugin } from './field-errors.js';

/** The parts of the spec the page reads itself; Swagger UI reads the rest. */
interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  servers?: { url: string }[];
}

declare const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;

export interface ConsoleInputs {
  spec: OpenApiDocument;
  validators: Record<string, BodyValidator>;
  /** The operations that take the condition header, as `method path`. */
  conditional: string[];
  conditionHeader: string;
  elementId: string;
  baseUrlFormId: string;
  /** The query parameter of a link that names the operation to open, `<tag>/<operationId>`. */
  operationParameter: string;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function render(inputs: ConsoleInputs, spec: OpenApiDocument): void {
  const methods = new Set(
    Object.values(spec.paths).flatMap((item) => Object.keys(item).filter((key) => HTTP_METHODS.has(key))),
  );
  SwaggerUIBundle({
    spec,
    dom_id: `#${inputs.elementId}`,
    deepLinking: true,
    tryItOutEnabled: true,
    persistAuthorization: false,
    // No reading of options (another spec's URL, say) from the page's own URL.
    queryConfigEnabled: false,
    // Swagger UI would otherwise send the spec to its public validator for a badge.
    validatorUrl: null,
    supportedSubmitMethods: [...methods],
    plugins: [
      plainSummaryPathPlugin,
      fieldErrorsPlugin,
      bodyCheckPlugin(inputs.validators),
      etagPlugin(inputs.conditional, inputs.conditionHeader),
    ],
  });
  const root = document.getElementById(inputs.elementId);
  if (root) keepAccessible(root);
}

/** The spec with its server URLs resolved against the base URL the reader gave. */
function servedFrom(spec: OpenApiDocument, baseUrl: string): OpenApiDocument {
  const servers = (spec.servers?.length ? spec.servers : [{ url: '/' }]).map((server) => ({
    ...server,
    url: new URL(server.url, baseUrl).href.replace(/\/$/, ''),
  }));
  return { ...spec, servers };
}

export function startConsole(inputs: ConsoleInputs): void {
  // Swagger UI opens the operation its fragment names.
  const wanted = new URLSearchParams(location.search).get(inputs.operationParameter);
  if (wanted) history.replaceState(null, '', `${location.pathname}#/${wanted}`);
  if (location.protocol !== 'file:') {
    render(inputs, inputs.spec);
    return;
  }
  const form = document.getElementById(inputs.baseUrlFormId) as HTMLFormElement;
  form.hidden = false;
  form.addEventListener('input', (event) => (event.target as HTMLInputElement).setCustomValidity(''));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const input = form.elements.namedItem('baseUrl') as HTMLInputElement;
    const given = input.value;
    if (!/^https?:$/.test(new URL(given).protocol)) {
      input.setCustomValidity('An http or https URL');
      input.reportValidity();
      return;
    }
    form.hidden = true;
    render(inputs, servedFrom(inputs.spec, given));
  });
}
