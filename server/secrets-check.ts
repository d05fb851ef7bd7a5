// Before the server serves, or a command touches the secrets: the keys it was given open what the
// database holds. Keys that do not would start a server that answers every PATCH of an existing
// destination with an error; the start stops instead, in one line that says which keys are which.
import type { Config } from './config.js';
import { secretsKeyId } from './domain/secrets.js';
import type { SealedKeys } from './store/sealed-keys.js';
import type { Store } from './store/store.js';

/** Keys that do not open the stored secrets: shown as one line, and exit 1. */
export class SecretsKeyMismatch extends Error {
  override name = 'SecretsKeyMismatch';
}

type GivenKeys = Pick<Config, 'secretsKey' | 'secretsKeySource' | 'previousSecretsKeys' | 'developmentKey'>;

/** The ids of the keys given, each with where it came from. */
function givenKeys(config: GivenKeys): string {
  return [
    `${secretsKeyId(config.secretsKey)} (${config.secretsKeySource})`,
    ...config.previousSecretsKeys.map((key) => `${secretsKeyId(key)} (SECRETS_KEY_PREVIOUS)`),
  ].join(', ');
}

/** `key 1a2b3c4d`, or `keys 1a2b3c4d, 5e6f7a8b`. */
const keys = (ids: readonly string[]) => `key${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`;

function mismatchMessage(sealedUnder: readonly string[], unopened: readonly string[], config: GivenKeys): string {
  const unsaved = config.developmentKey ? ` Nothing was saved to ${config.developmentKey.file}.` : '';
  return (
    `the destination secrets in the database are sealed under ${keys(sealedUnder)}, and the keys given ` +
    `(${givenKeys(config)}) do not open those sealed under ${keys(unopened)}.${unsaved} ` +
    'Set SECRETS_KEY to the key they were sealed under, or give that key as SECRETS_KEY_PREVIOUS beside ' +
    'the new SECRETS_KEY and run `npm run -s cli -- rotate-secrets-key`.'
  );
}

/** Resolves when the keys open a sample of every key id the stored secrets name; an empty database passes. */
export async function checkSecretsKeys(store: Store, config: GivenKeys): Promise<void> {
  refuseUnopenedKeys(await store.sealedKeys(), config);
}

/** Throws the mismatch when some stored secrets are sealed under a key not given. */
export function refuseUnopenedKeys({ sealedUnder, unopened }: SealedKeys, config: GivenKeys): void {
  if (unopened.length > 0) throw new SecretsKeyMismatch(mismatchMessage(sealedUnder, unopened, config));
}
