// Provisioning against DATABASE_URL: `npm run -s cli -- <command> [options]`. Every command prints
// one JSON object on stdout. Raw keys are printed once, at creation, and never stored.
// Exit codes: 0 done, 1 not found or refused (said in one sentence), 2 usage (with the usage).
import { loadConfig } from './config.js';
import { openConfiguredStore } from './configured-store.js';
import { FieldValidationError } from './domain/field-errors.js';
import { systemClock } from './domain/time.js';
import { describeFailure } from './failure.js';
import { readCommandLine, usageError } from './provisioning/command-line.js';
import { runsWithoutStore } from './provisioning/command-table.js';
import { RefusedError, UsageError } from './provisioning/command-values.js';
import { cliCommands, runCommand } from './provisioning/commands.js';
import { Provisioning } from './provisioning/provision.js';
import { runMain } from './run-main.js';
import { loadSpec, type OpenApiDocument } from './spec.js';
import { isReadOnlyRefusal } from './store/read-only.js';
import type { Store } from './store/store.js';
import { storelessContext } from './storeless-context.js';

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
  const entry = commands.find((known) => known.name === command);
  let run: () => Promise<unknown>;
  let store: Store | undefined;
  try {
    const config = loadConfig(process.env, (message) => console.error(message));
    if (runsWithoutStore(entry)) {
      // These read the database on connections of their own: opening the store would migrate it, or make it a key.
      const context = storelessContext(config, process.env, (warning) => console.error(warning));
      run = () => entry.runWithoutStore(line.values, context);
    } else {
      // `migrate` always migrates; the other commands, as the server would start.
      // The keys are checked for the commands that touch secrets only: the others still serve a
      // database whose key is lost.
      const opened = await openConfiguredStore(config, {
        checkSecrets: entry?.opensSecrets === true,
        ...(command === 'migrate' && { migrate: true }),
      });
      store = opened;
      run = () =>
        runCommand(commands, command, line.values, {
          store: opened,
          provisioning: new Provisioning(spec),
          now: systemClock(),
          warn: (warning) => console.error(warning),
        });
    }
  } catch (err) {
    console.error(describeFailure(err));
    return 1;
  }
  try {
    const result = await run();
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
    if (isReadOnlyRefusal(err)) {
      console.error(
        'The database is read-only while it moves: nothing was written. Writes resume after `npm run -s cli -- read-only --off`, or on the database it moved to.',
      );
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
    await store?.close();
  }
}

await runMain(main, import.meta.url);
