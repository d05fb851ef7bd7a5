// What the server knows of a request lives on the request (server/http/request-context.ts), and of a
// connection on its socket: no map or set anywhere in server/ is keyed by a request, a response or a
// socket, so that no such state can outlive its request or be read from a second place. The spec
// is walked with one `$ref` follower (server/spec.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/process.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const KEYED_BY_REQUEST =
  /new\s+(?:Weak)?(?:Map|Set)\s*<\s*(?:express\.)?(?:Request|Response|IncomingMessage|ServerResponse|Socket|TLSSocket|Duplex)\b/;

/** A loop that follows `$ref`s by hand: a `$ref` read inside a `for` or `while` condition. */
const REF_LOOP = /\b(?:for|while)\s*\([^)]*\$ref/;

describe('state of a request', () => {
  const files = sourceFiles(join(projectRoot, 'server'));

  it('reads the server', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('is kept on the request: no map or set in server/ is keyed by a request, a response or a socket', () => {
    const keyed = files.filter((file) => KEYED_BY_REQUEST.test(readFileSync(file, 'utf8')));
    expect(keyed.map((file) => relative(projectRoot, file))).toEqual([]);
  });

  it('is caught by the rule above when written the ways it was', () => {
    for (const written of [
      'const matched = new WeakMap<Request, SpecOperation>();',
      'const warmUpSockets = new WeakSet<Socket>();',
      'const connections = new WeakMap<Socket, Turns>();',
      'const awaitingContinue = new WeakSet<IncomingMessage>();',
    ])
      expect(written).toMatch(KEYED_BY_REQUEST);
  });
});

describe('the spec walked one way', () => {
  it('follows $refs in one place only, server/spec.ts', () => {
    const files = ['server', 'scripts', 'bench', 'test/support'].flatMap((folder) =>
      sourceFiles(join(projectRoot, folder)),
    );
    const loops = files.filter((file) => REF_LOOP.test(readFileSync(file, 'utf8')));
    expect(loops.map((file) => relative(projectRoot, file))).toEqual(['server/spec.ts']);
  });
});
