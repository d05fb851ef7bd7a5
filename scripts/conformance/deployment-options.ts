// The options that name a deployment and the objects of it a run may use, as the conformance and
// workflows commands take them: the base URL, the keys (or their environment variables, so that
// they are never on a command line) and the destination and preset.
import type { KnownObjects } from './run.js';
import { KEY_VARIABLE, STANDARD_KEY_VARIABLE } from './send.js';

export const DEPLOYMENT_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  'standard-key': { type: 'string' },
  destination: { type: 'string' },
  preset: { type: 'string' },
} as const;

interface Given {
  url?: string | undefined;
  key?: string | undefined;
  'standard-key'?: string | undefined;
  destination?: string | undefined;
  preset?: string | undefined;
}

/** The deployment the options name, or the one line that says what is wrong with them. */
export function deploymentOf(values: Given): KnownObjects | string {
  const key = values.key ?? process.env[KEY_VARIABLE];
  const standardKey = values['standard-key'] ?? process.env[STANDARD_KEY_VARIABLE];
  if (!values.url) return '--url is required: the base URL the spec paths are served under';
  if (!URL.canParse(values.url) || !/^https?:$/.test(new URL(values.url).protocol))
    return `--url takes an http or https URL, not ${values.url}`;
  if (!key) return `--key is required (or set ${KEY_VARIABLE}): a management key of the deployment`;
  return {
    baseUrl: values.url.replace(/\/+$/, ''),
    key,
    ...(standardKey && { standardKey }),
    ...(values.destination && { destination: values.destination }),
    ...(values.preset && { preset: values.preset }),
  };
}
