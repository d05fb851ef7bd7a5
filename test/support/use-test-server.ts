// The set-up most test files share, one call each: a test server started before the tests of the
// file or describe block that calls it and closed after them, a workspace on it, a destination of
// that workspace. Hooks run in the order the calls are made, and after hooks in reverse.
import { afterAll, beforeAll } from 'vitest';
import {
  createTestDestination,
  createWorkspace,
  startTestServer,
  type TestServer,
  type TestServerOptions,
  type Workspace,
} from './server.js';

// The tests are collected before any hook runs, so what a hook makes cannot be returned: each
// fixture returns an empty object that its beforeAll fills in, and the tests read that object.
function filledBeforeAll<T extends object>(make: () => Promise<T>): { value: T; made: () => T | undefined } {
  const value = {} as T;
  let made: T | undefined;
  beforeAll(async () => {
    made = await make();
    Object.assign(value, made);
  });
  return { value, made: () => made };
}

/** A test server for the tests of the calling file or describe block. */
export function useTestServer(options: TestServerOptions = {}): TestServer {
  const server = filledBeforeAll(() => startTestServer(options));
  afterAll(() => server.made()?.close());
  return server.value;
}

/** A workspace with one management and one standard key, made on the server before the tests. */
export function useWorkspace(server: TestServer, name?: string): Workspace {
  return filledBeforeAll(() => createWorkspace(server.store, server.clock.now(), name)).value;
}

/** One otel-collector destination of the workspace, made before the tests; `path` is its URL path. */
export function useDestination(server: TestServer, workspace: Workspace): { path: string } {
  return filledBeforeAll(async () => ({ path: await createTestDestination(server, workspace) })).value;
}
