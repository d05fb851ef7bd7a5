// Provisioning against DATABASE_URL: `npm run -s cli -- <command> [options]`. Every command prints
// one JSON object on stdout. Raw keys are printed once, at creation, and never stored.
// Exit codes: 0 done, 1 not found or refused (said in one sentence), 2 usage (with the usage).
import { loadConfig } from './config.js';
import { openConfiguredStore } from './configured-store.js';
import { FieldValidationError } from './domain/field-errors.js';
import { systemClock } from './domain/time.js';
import { describeFailure } from './failure.js';
import { readCommandLine, usageError } from './provisioning/command-line.js';
import { RefusedError, UsageError } from './provisioning/command-values.js';
import { cliCommands, runCommand } from './provisioning/commands.js';
import { Provisioning } from './provisioning/index.js';
import { runMain } from './run-main.js';
import { loadSpec, type OpenApiDocument } from './spec.js';
import type { Store } from './store/index.js';

export async function main(argv: string[]): Promise<number> {
  let spec: OpenApiDocument;
  try {
    spec = loadSpec();
  } catch (err) {
    console.error(describeFailure(err));
    return 1;
  }
  const commands = cliCommands(spec);
  const line = readCommandLine(argv, commands);
  if ('print' in line) {
    if (line.to === 'stdout') console.log(line.print);
    else console.error(line.print);
    return line.exitCode;
  }
  const command = line.run;
  let store: Store;
  try {
    const config = loadConfig(process.env, (message) => console.error(message));
    // `migrate` always migrates; the other commands, as the server would start. The keys are checked
    // for the commands that touch secrets only: the others still serve a database whose key is lost.
    store = await openConfiguredStore(config, {
      checkSecrets: commands.find((known) => known.name === command)?.opensSecrets === true,
      ...(command === 'migrate' && { migrate: true }),
    });
  } catch (err) {
    console.error(describeFailure(err));
    return 1;
  }
  try {
    const result = await runCommand(commands, command, line.values, {
      store,
      provisioning: new Provisioning(spec),
      now: systemClock(),
      warn: (warning) => console.error(warning),
    });
    console.log(JSON.stringify(result, null, line.values.json || command !== 'seed' ? undefined : 2));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(
        usageError(
          err.message,
          commands.find((known) => known.name === command),
          commands,
        ),
      );
      return 2;
    }
    if (err instanceof RefusedError) {
      console.error(err.message);
      return 1;
    }
    if (err instanceof FieldValidationError) {
      console.error(`invalid input: ${err.message}`);
      return 1;
    }
    // Every error the input can cause is one of the above; anything else is a fault of the CLI's own.
    console.error(describeFailure(err, (message) => `unexpected error: ${message}`));
    return 1;
  } finally {
    await store.close();
  }
}

await runMain(main, import.meta.url);
