// A copy of this checkout as a fresh clone would have it: the files git tracks, or would track
// (uncommitted changes included), without dist/ or data/, its node_modules linked as after `npm ci`.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../server/project-root.js';

export interface CheckoutCopy {
  dir: string;
  remove(): void;
}

export function copyOfCheckout(): CheckoutCopy {
  const dir = mkdtempSync(join(tmpdir(), 'checkout-copy-'));
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  for (const file of listed.split('\0').filter(Boolean)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    // A file deleted but not yet committed is listed and absent: a fresh clone would not have it either.
    try {
      cpSync(join(projectRoot, file), join(dir, file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
