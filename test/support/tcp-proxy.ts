// A TCP proxy on loopback in front of a service (PostgreSQL, Redis), for the tests that take the
// service away or slow it without touching it: stopped it refuses connections and cuts the open
// ones, frozen it forwards nothing and closes nothing, delayed it holds each answer back a while.
import { connect, createServer, type Server, type Socket } from 'node:net';

export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();
  private frozen = false;
  private delayMs = 0;
  /** The port it listens on: kept from one start to the next, so that clients find it again. */
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  /** Where it listens, as a URL of the service's scheme (`redis:`, `postgres:`), taking the rest from `url`. */
  url(url: string): string {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(this.port);
    return through.toString();
  }

  async start(): Promise<void> {
    this.frozen = false;
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      this.forwardAnswers(upstream, client);
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      client.on('close', () => this.pairs.delete(pair));
      if (this.frozen) this.freeze();
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /**
   * The service's answers, each held back `delayMs` (what was set when it came), in order: an answer
   * that comes once the delay is off still waits for those held before it.
   */
  private forwardAnswers(upstream: Socket, client: Socket): void {
    let last = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      const due = performance.now() + this.delayMs;
      last = last
        .then(() => {
          const wait = due - performance.now();
          return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : undefined;
        })
        .then(() => {
          if (!client.destroyed) client.write(chunk);
        });
    });
  }

  /** Holds each answer of the service back `ms` from now on; 0 forwards them at once again. */
  delay(ms: number): void {
    this.delayMs = ms;
  }

  /** Forwards nothing any more, on open and new connections alike, and closes none: a service that hangs. */
  freeze(): void {
    this.frozen = true;
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.removeAllListeners('data');
      client.pause();
      upstream.pause();
    }
  }

  /** Refuses new connections and cuts the open ones. */
  async stop(): Promise<void> {
    const closed = new Promise((resolve) => this.server?.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}
