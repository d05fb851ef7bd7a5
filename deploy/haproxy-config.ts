// The HAProxy configuration of a deployment: one address in front, the instances behind it, each
// checked on GET /readyz, and at most so many connections at once per client address.
// deploy/haproxy.cfg is this for three instances on loopback (a test keeps them equal);
// `npm run cluster` writes the same for the instances it starts.
import { DEFAULT_MAX_CONNECTIONS_PER_ADDRESS } from '../server/http/connection-limit.js';

/** How often HAProxy checks an instance, and after how many failed checks it stops sending to it. */
export const CHECK_INTERVAL_MS = 300;
export const CHECK_FALL = 2;
export const CHECK_RISE = 2;
/**
 * From an instance failing /readyz to HAProxy sending it nothing new: CHECK_FALL failed checks, one
 * interval apart, the first within an interval; one interval more for the checks' own time.
 */
export const DETECTION_MS = CHECK_INTERVAL_MS * (CHECK_FALL + 1);
/** SHUTDOWN_DELAY_MS for instances behind it: longer than DETECTION_MS, with room for a busy host. */
export const SHUTDOWN_DELAY_MS = 2000;

export interface Address {
  host: string;
  port: number;
}

export interface HaproxyOptions {
  /** Where clients connect. */
  front: Address;
  instances: Address[];
  /** Name the instance that answered in X-Served-By (for local clusters and tests, not the internet). */
  servedBy?: boolean;
  /** Connections at once per client address: the instances' MAX_CONNECTIONS_PER_ADDRESS by default. */
  maxConnectionsPerAddress?: number;
}

export function haproxyConfig({
  front,
  instances,
  servedBy = false,
  maxConnectionsPerAddress = DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
}: HaproxyOptions): string {
  return `${[
    '# HAProxy in front of the API instances. Written by deploy/haproxy-config.ts (npm run cluster',
    '# writes the same for the instances it starts); README, "Running in production".',
    '#',
    `# Each instance is checked on GET /readyz every ${CHECK_INTERVAL_MS} ms; ${CHECK_FALL} failed checks take it out,`,
    `# ${CHECK_RISE} good ones bring it back. On SIGTERM an instance fails /readyz at once and keeps serving for`,
    `# SHUTDOWN_DELAY_MS: set it above the ${DETECTION_MS} ms this takes to notice (${CHECK_FALL} checks, the first`,
    `# within an interval, plus an interval for the checks' own time): ${SHUTDOWN_DELAY_MS} ms leaves room for a busy host.`,
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    "  # Longer than the server's REQUEST_TIMEOUT_MS (30 s): the server answers its own timeout.",
    '  timeout server 35s',
    `  timeout check ${CHECK_INTERVAL_MS}ms`,
    "  # Shorter than the server's KEEP_ALIVE_TIMEOUT_MS (5 s): HAProxy closes an idle connection first",
    '  # and never sends a request on one the server is closing.',
    '  timeout http-keep-alive 4s',
    "  # X-Forwarded-For, for the server's TRUST_PROXY: the failed-authentication limit counts clients.",
    '  option forwardfor',
    '  # A request that could not reach an instance (refused, or closed before any answer) goes to another.',
    '  retries 3',
    '  option redispatch',
    '  retry-on conn-failure empty-response',
    '',
    'frontend api',
    `  bind ${front.host}:${front.port}`,
    `  # At most ${maxConnectionsPerAddress} connections at once per client address, closed before anything is read, as`,
    '  # MAX_CONNECTIONS_PER_ADDRESS does on an instance facing clients: the instances do not count the',
    "  # balancer's connections (TRUST_PROXY), so the limit per client is kept here. IPv4 and IPv6 alike.",
    '  stick-table type ipv6 size 100k expire 30s store conn_cur',
    '  tcp-request connection track-sc0 src',
    `  tcp-request connection reject if { sc_conn_cur(0) gt ${maxConnectionsPerAddress} }`,
    '  default_backend instances',
    '',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /readyz',
    '  http-check expect status 200',
    ...(servedBy
      ? [
          "  # Which instance answered (a local cluster's aid; not for a public front).",
          '  http-response set-header X-Served-By %s',
        ]
      : []),
    `  default-server inter ${CHECK_INTERVAL_MS}ms fall ${CHECK_FALL} rise ${CHECK_RISE}`,
    ...instances.map(({ host, port }, i) => `  server app${i + 1} ${host}:${port} check`),
  ].join('\n')}\n`;
}

/** The instances of a cluster whose front is `front`: the ports right after it. */
export function clusterInstances(front: Address, count: number): Address[] {
  return Array.from({ length: count }, (_, i) => ({ host: front.host, port: front.port + i + 1 }));
}
