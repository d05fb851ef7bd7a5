// What the server knows of a request lives on the request (server/http/request-context.ts), and of a
// connection on its socket: no map or set anywhere in server/ is keyed by a request, a response or a
// socket, so that no such state can outlive its request or be read from a second place. Nor is any
// of it ambient: a request's trace is handed to the store and the limiter, not carried by
// AsyncLocalStorage, whose hooks every request would pay for. The spec is walked with one `$ref`
// follower (server/spec.ts).
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

/** A rule of server/'s sources: what no file may match, and how it was once written there. */
interface SourceRule {
  rule: string;
  forbidden: RegExp;
  writtenBefore: string[];
}

const REQUEST_STATE_RULES: SourceRule[] = [
  {
    rule: 'is kept on the request: no map or set in server/ is keyed by a request, a response or a socket',
    forbidden:
      /new\s+(?:Weak)?(?:Map|Set)\s*<\s*(?:express\.)?(?:Request|Response|IncomingMessage|ServerResponse|Socket|TLSSocket|Duplex)\b/,
    writtenBefore: [
      'const matched = new WeakMap<Request, SpecOperation>();',
      'const warmUpSockets = new WeakSet<Socket>();',
      'const connections = new WeakMap<Socket, Turns>();',
      'const awaitingContinue = new WeakSet<IncomingMessage>();',
    ],
  },
  {
    // AsyncLocalStorage, async hooks, OpenTelemetry's context managers: a request's trace is handed on.
    rule: 'is never ambient: nothing in server/ carries a context across awaits',
    forbidden: /\bAsyncLocalStorage\b|node:async_hooks|['"]async_hooks['"]|ContextManager\b|context\.with\(/,
    writtenBefore: [
      "import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';",
      'context.setGlobalContextManager(manager);',
      'context.with(trace.setSpan(parent, span), next);',
      "import { AsyncLocalStorage } from 'node:async_hooks';",
    ],
  },
];

/** A loop that follows `$ref`s by hand: a `$ref` read inside a `for` or `while` condition. */
const REF_LOOP = /\b(?:for|while)\s*\([^)]*\$ref/;

describe('state of a request', () => {
  const files = sourceFiles(join(projectRoot, 'server'));

  it('reads the server', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  for (const { rule, forbidden, writtenBefore } of REQUEST_STATE_RULES) {
    it(rule, () => {
      const breaking = files.filter((file) => forbidden.test(readFileSync(file, 'utf8')));
      const breakingFiles = breaking.map((file) => relative(projectRoot, file));
      expect(breakingFiles, breakingFiles.join('\n')).toEqual([]);
    });

    it(`${rule}; the rule catches it written as it was`, () => {
      for (const written of writtenBefore) expect(written).toMatch(forbidden);
    });
  }
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
