// The commands that act on the database as a whole rather than on its records: resealing its
// secrets, making it read-only while it moves, backing it up and copying it into another.
import { backupCommand } from './backup-command.js';
import { type CliCommand, command } from './command-table.js';
import { copyCommand } from './copy-command.js';

export function databaseCommands(): CliCommand[] {
  return [
    command({
      name: 'rotate-secrets-key',
      opensSecrets: true,
      about:
        'Re-encrypt every secret under SECRETS_KEY; values sealed under SECRETS_KEY_PREVIOUS (comma-separated) are read, then resealed.',
      options: [],
      run: (_values, { store }) => store.destinations.resealAll(),
    }),
    command({
      name: 'read-only',
      about:
        "Make the database read-only for a move: reads are served, every write (the API's and the CLI's) is refused until --off. Returns once no write begun before can still commit.",
      options: [{ name: 'off', about: 'make the database writable again' }],
      run: (values, { store, now }) => store.serviceState.setReadOnly(values.off !== true, now),
    }),
    backupCommand(),
    copyCommand(),
  ];
}
