// Stopping without failing a request. On SIGTERM readiness fails at once, but the server keeps
// accepting and serving for a delay, answering with `Connection: close`, so that a balancer moves
// traffic elsewhere before the listener closes; then it drains what is in flight within a grace
// period. SIGINT (Ctrl-C) skips the delay; a second signal during the delay ends it.
import type { Logger } from 'pino';
import type { HttpServer } from './http/http-server.js';

export interface ShutdownOptions {
  http: HttpServer;
  logger: Logger;
  delayMs: number;
  /** Time allowed to finish in-flight requests once the listener is closed; exit 1 past it. */
  graceMs: number;
  /** What to close once nothing is in flight: the database, shared stores. */
  closeResources: () => Promise<void>;
  exit: (code: number) => void;
}

export interface Shutdown {
  /** From the first signal on. */
  readonly started: boolean;
  signal(name: NodeJS.Signals): void;
}

export function gracefulShutdown(options: ShutdownOptions): Shutdown {
  const { http, logger, delayMs, graceMs } = options;
  let phase: 'serving' | 'delaying' | 'draining' = 'serving';
  let delay: NodeJS.Timeout | undefined;

  const drainNow = () => {
    phase = 'draining';
    clearTimeout(delay);
    logger.info('shutting down: listener closed, finishing in-flight requests');
    setTimeout(() => {
      logger.error('in-flight requests did not finish in time; exiting');
      options.exit(1);
    }, graceMs).unref();
    void http
      .drain()
      .then(options.closeResources)
      .then(() => {
        logger.info('stopped');
        options.exit(0);
      });
  };

  return {
    get started() {
      return phase !== 'serving';
    },
    signal(name) {
      if (phase === 'draining') return;
      if (phase === 'delaying') {
        logger.info({ signal: name }, 'shutting down: second signal, not waiting any longer');
        drainNow();
        return;
      }
      http.closeKeepAlive();
      if (name === 'SIGINT' || delayMs === 0) {
        logger.info({ signal: name }, 'shutting down');
        drainNow();
        return;
      }
      phase = 'delaying';
      logger.info({ signal: name, delayMs }, 'shutting down: not ready, serving until the delay ends');
      delay = setTimeout(drainNow, delayMs);
    },
  };
}
