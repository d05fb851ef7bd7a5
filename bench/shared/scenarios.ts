// A scenario of the load, and the requests autocannon sends for it.

export interface Scenario {
  name: string;
  method: 'GET' | 'PATCH';
  path: string;
  /** Bodies sent in turn. */
  bodies?: string[];
  /** A body made for each request as it is sent (a writing PATCH's: patch-bodies.ts), instead of `bodies`. */
  body?: () => string;
  /** Paths sent in turn, each with every body, instead of `path` alone. */
  paths?: string[];
  /** Headers sent beside the key and the content type (an If-None-Match). */
  headers?: Record<string, string>;
}

/** A scenario's requests for autocannon: each of its paths with each of its bodies, with the key. */
export function requestsOf(scenario: Scenario, apiKey: string) {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...scenario.headers };
  const { body: made } = scenario;
  return (scenario.paths ?? [scenario.path]).flatMap((path) =>
    made
      ? [
          {
            method: scenario.method,
            path,
            headers,
            setupRequest: <T extends object>(request: T) => ({ ...request, body: made() }),
          },
        ]
      : (scenario.bodies ?? [undefined]).map((body) => ({
          method: scenario.method,
          path,
          headers,
          ...(body && { body }),
        })),
  );
}

/** The body of a scenario's first request: the one its answer is captured for. */
export function firstBody(scenario: Scenario): string | undefined {
  return scenario.body ? scenario.body() : scenario.bodies?.[0];
}
