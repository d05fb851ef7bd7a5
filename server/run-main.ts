// The one way an entry point of scripts/, bench/ and the CLI ends: its `main` returns the exit
// code, and an error it did not expect is one line on stderr, never a stack trace.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** An entry point: the command line's arguments (without node and the script) in, the exit code out. */
export type Main = (argv: string[]) => Promise<number> | number;

/** True when the module at `moduleUrl` is the script the process was started with, not an import of it. */
export function isEntryPoint(moduleUrl: string, argv: readonly string[] = process.argv): boolean {
  const started = argv[1];
  if (started === undefined) return false;
  const module = realPath(fileURLToPath(moduleUrl));
  // Node finds `node dist/server/cli` without its extension, and loads a link by its target.
  return [started, `${started}.js`, `${started}.ts`].some((path) => realPath(resolve(path)) === module);
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The one line said of an error no entry point expects. */
export function unexpectedErrorLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `unexpected error: ${message.split('\n')[0] || (err instanceof Error ? err.name : 'unknown')}`;
}

/**
 * Runs `main` with the process's arguments when `moduleUrl` (the caller's `import.meta.url`) is the
 * process's entry point, and sets `process.exitCode` to what it returns; an error it throws is one
 * line on stderr and exit code 1. Imported by a test or another entry, the module runs nothing.
 */
export async function runMain(main: Main, moduleUrl: string): Promise<void> {
  if (!isEntryPoint(moduleUrl)) return;
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (err) {
    console.error(unexpectedErrorLine(err));
    process.exitCode = 1;
  }
}
