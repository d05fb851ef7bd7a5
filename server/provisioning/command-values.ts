// What a command makes of the option values it was given, and the two ways it is refused: input
// the CLI cannot use (UsageError: exit 2, with the usage) and a name that does not exist
// (RefusedError: exit 1, one sentence, no usage).
import type { Store } from '../store/store.js';

/** Something the command names does not exist, or was refused: exit 1, one sentence, no usage. */
export class RefusedError extends Error {}

export class UsageError extends Error {}

export function number(value: string, name: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new UsageError(`--${name} must be a number`);
  return parsed;
}

export function json<T>(value: string, name: string): T {
  try {
    return JSON.parse(value) as T;
  } catch {
    throw new UsageError(`--${name} must be valid JSON`);
  }
}

export async function requireWorkspace(store: Store, id: string): Promise<void> {
  if (!(await store.workspaces.exists(id)))
    throw new RefusedError(`no workspace ${id} (npm run -s cli -- list-workspaces lists them)`);
}
