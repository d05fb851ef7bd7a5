// Where the tests find a Chromium to drive: CHROMIUM_PATH, or the first of the usual names on PATH.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The browser's path, or why there is none, to say in the name of the suite it skips. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  if (env.CHROMIUM_PATH) {
    return isExecutable(env.CHROMIUM_PATH)
      ? { path: env.CHROMIUM_PATH }
      : { missing: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable` };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of NAMES) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return { path: candidate };
    }
  }
  return {
    missing: `no ${NAMES.join(', ')} on PATH; install one (.ci/run installs Debian's chromium) or set CHROMIUM_PATH`,
  };
}
