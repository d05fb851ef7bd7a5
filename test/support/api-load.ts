// A load of clients against a server that can be moved to another while it runs: one client per
// destination, each in turn reading a key, renaming its destination by a PATCH and reading a page
// of a preset, every answer recorded with the server that gave it and when.
import type { Filled } from './copy-fixtures.js';

export interface Answer {
  client: number;
  method: 'GET' | 'PATCH';
  path: string;
  /** The server that answered: the base URL the request was sent to. */
  server: string;
  status: number;
  retryAfter: string | null;
  /** The name a PATCH sent, and the name its answer holds (null when it was refused). */
  sent?: string;
  name?: string | null;
  startedAt: number;
  endedAt: number;
}

export interface Load {
  answers: Answer[];
  /** Sends every request from now on to this server. */
  moveTo(url: string): void;
  /** Lets every client finish its request, then resolves with every answer. */
  stop(): Promise<Answer[]>;
}

interface Client {
  destination: string;
  managementKey: string;
  standardKey: string;
  keyHashes: string[];
  slugs: string[];
}

export const clientsOf = (filled: Filled): Client[] =>
  filled.workspaces.flatMap((workspace) =>
    workspace.destinations.map((destination) => ({ ...workspace, destination })),
  );

/** Starts the load on `url`; it stops by itself after `capMs` if `stop` is not called first. */
export function startLoad(filled: Filled, url: string, capMs = 60_000): Load {
  const answers: Answer[] = [];
  let current = url;
  let stopped = false;
  const cap = setTimeout(() => {
    stopped = true;
  }, capMs);

  async function send(client: number, method: Answer['method'], path: string, key: string, sent?: string) {
    const server = current;
    const startedAt = performance.now();
    const response = await fetch(`${server}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(sent !== undefined && { 'content-type': 'application/json' }) },
      ...(sent !== undefined && { body: JSON.stringify({ name: sent }) }),
    });
    const body = (await response.json().catch(() => null)) as { data?: { name?: string | null } } | null;
    answers.push({
      client,
      method,
      path,
      server,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      ...(sent !== undefined && { sent, name: response.status === 200 ? (body?.data?.name ?? null) : null }),
      startedAt,
      endedAt: performance.now(),
    });
  }

  async function run(client: number, of: Client) {
    for (let n = 0; !stopped; n++) {
      await send(client, 'GET', `/api/v1/keys/${of.keyHashes[n % of.keyHashes.length]}`, of.managementKey);
      await send(client, 'PATCH', `/api/v1/observability/destinations/${of.destination}`, of.managementKey, `n${n}`);
      const slug = of.slugs[n % of.slugs.length];
      await send(client, 'GET', `/api/v1/presets/${slug}/versions?offset=${(n % 3) * 50}&limit=50`, of.standardKey);
    }
  }

  // A request that fails (the server gone) stops every client; stop() throws it.
  const running = Promise.all(clientsOf(filled).map((of, client) => run(client, of))).then(
    () => undefined,
    (err: unknown) => {
      stopped = true;
      return err;
    },
  );
  return {
    answers,
    moveTo(url) {
      current = url;
    },
    async stop() {
      stopped = true;
      clearTimeout(cap);
      const failed = await running;
      if (failed !== undefined) throw failed;
      return answers;
    },
  };
}

/** Each destination's name as the last PATCH acknowledged (200) on `server` left it. */
export function lastAcknowledged(answers: Answer[], server: string): Map<string, string | null | undefined> {
  const names = new Map<string, string | null | undefined>();
  for (const answer of answers)
    if (answer.method === 'PATCH' && answer.server === server && answer.status === 200)
      names.set(answer.path, answer.name);
  return names;
}

/** Reads each destination by an empty PATCH: its name, as the server holds it. */
export async function namesOn(url: string, filled: Filled): Promise<Map<string, string | null>> {
  const names = new Map<string, string | null>();
  for (const of of clientsOf(filled)) {
    const path = `/api/v1/observability/destinations/${of.destination}`;
    const response = await fetch(`${url}${path}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${of.managementKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    if (response.status !== 200)
      throw new Error(`PATCH {} ${path} on ${url}: ${response.status} ${await response.text()}`);
    names.set(path, ((await response.json()) as { data: { name: string | null } }).data.name);
  }
  return names;
}
