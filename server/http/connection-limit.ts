// At most so many connections at once from one client address, so that one address cannot take
// every connection (and file descriptor) of the process and leave other clients refused. A
// connection past the limit is closed as soon as it is accepted, before any of it is read.
// Connections from an address trusted as a proxy (TRUST_PROXY) are not counted: a balancer's
// connections carry many clients, and the balancer limits each of them (deploy/haproxy.cfg).
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
