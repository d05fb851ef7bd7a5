// At most so many connections at once from one client address, so that one address cannot take
// every connection (and file descriptor) of the process and leave other clients refused. A
// connection past the limit is closed as soon as it is accepted, before any of it is read.
// Connections from an address trusted as a proxy (TRUST_PROXY) are not counted: a balancer's
// connections carry many clients, and the balancer limits each of them (deploy/haproxy.cfg).
import { readFileSync } from 'node:fs';
import type { Server } from 'node:net';

export interface PerAddressLimit {
  /** Connections at once per address. */
  limit: number;
  /** Addresses whose connections are not counted: the proxies in front. */
  exempt: (address: string) => boolean;
}

export interface ConnectionCounts {
  /** Addresses with a connection open: one entry per address, removed with its last connection. */
  addresses(): number;
}

export function limitConnectionsPerAddress(server: Server, { limit, exempt }: PerAddressLimit): ConnectionCounts {
  // Keyed by what clients choose, but never larger than the connections open (server.maxConnections).
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    // No address: the socket closed before it was handed over.
    if (address === undefined || exempt(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= limit) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
  return { addresses: () => open.size };
}

/** Connections at once from one client address, unless MAX_CONNECTIONS_PER_ADDRESS says otherwise. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 128;
/** The open-file limit assumed where the system does not tell it (the usual default soft limit). */
const ASSUMED_OPEN_FILE_LIMIT = 1024;

/** The soft limit on open files of this process, from /proc (Linux); undefined elsewhere, or when unlimited. */
export function openFileLimit(limits = '/proc/self/limits'): number | undefined {
  try {
    const soft = /Max open files\s+(\d+)/.exec(readFileSync(limits, 'utf8'))?.[1];
    return soft === undefined ? undefined : Number(soft);
  } catch {
    // No such file: not Linux.
  }
}

/**
 * MAX_CONNECTIONS by default: the open-file limit less a tenth of it (at least 64) for what else
 * the process opens (the database pool, Redis, logs, the metrics port), at most 10,000. A process
 * that reached its file limit could accept no connection at all: libuv would accept and close
 * each at once, failing every client; below it, connections past the limit are closed and the
 * open ones served.
 */
export function defaultMaxConnections(fileLimit = openFileLimit() ?? ASSUMED_OPEN_FILE_LIMIT): number {
  return Math.max(1, Math.min(10_000, fileLimit - Math.max(64, Math.floor(fileLimit / 10))));
}
