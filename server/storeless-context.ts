// What the CLI gives a command that opens no store (backup, copy-database): the configuration's
// database and keys, and how the keys of another database are found.
import type { Config } from './config.js';
import { developmentKeyFile } from './dev-key-file.js';
import { createSecretBox } from './domain/secrets.js';
import type { StorelessContext } from './provisioning/command-table.js';
import { progressLine } from './provisioning/progress-line.js';
import { refuseUnopenedKeys } from './secrets-check.js';
import { resolveTargetSecretsKey } from './secrets-key.js';

export function storelessContext(
  config: Config,
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void,
): StorelessContext {
  return {
    databaseUrl: config.databaseUrl,
    ...(!env.SECRETS_KEY && { developmentKeyFile: (file: string) => developmentKeyFile(`sqlite:${file}`) }),
    progress: progressLine(),
    secrets: createSecretBox(config.secretsKey, config.previousSecretsKeys),
    refuseKeys: (sealed) => refuseUnopenedKeys(sealed, config),
    targetSecrets(url) {
      const target = resolveTargetSecretsKey(env, url, config.secretsKey, warn);
      return {
        secrets: createSecretBox(target.secretsKey),
        ...(target.developmentKey && { save: target.developmentKey.save }),
      };
    },
    connectTimeoutMs: config.databaseConnectTimeoutMs,
  };
}
