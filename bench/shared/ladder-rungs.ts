// The rungs of the ladder: bare Express, then prefixes of the server's own request pipeline
// (server/request-pipeline.ts), each a layer or two longer than the one before, then the server
// itself. Each rung is measured against the rung it adds to; the released validator is measured
// against the same rung as the server's patched one, in its place.
export interface Rung {
  id: string;
  label: string;
  /** The pipeline up to and including the layer of this name, answering from the constant table; none for bare Express. */
  upTo?: string;
  /** The validator as released instead of the server's patched one. */
  releasedValidator?: boolean;
  /** The whole server (createApp), with or without its metrics, or with tracing on. */
  server?: 'plain' | 'with metrics' | 'with tracing';
  /** With tracing on: the share of requests sampled (and so exported). */
  sampled?: number;
  /** The rung this one adds a layer to; none for bare Express. */
  base?: string;
  /** The most its CPU per request may be over its base's, where it has a target (tracing's, by sampling ratio). */
  ratioTarget?: number;
}

export const LADDER: Rung[] = [
  { id: 'bare', label: 'bare Express' },
  { id: 'log', label: 'request log', upTo: 'request log', base: 'bare' },
  { id: 'headers', label: 'security headers', upTo: 'security headers', base: 'log' },
  { id: 'match', label: 'operation match', upTo: 'operation match', base: 'headers' },
  { id: 'auth', label: 'authentication with its key lookup', upTo: 'authentication', base: 'match' },
  { id: 'limit', label: 'rate limit', upTo: 'rate limit', base: 'auth' },
  { id: 'kind', label: 'key kind', upTo: 'key kind', base: 'limit' },
  { id: 'parse', label: 'content type, body admission, JSON parser', upTo: 'json body', base: 'kind' },
  {
    id: 'released',
    label: 'the check step, with express-openapi-validator as released',
    upTo: 'request checks',
    releasedValidator: true,
    base: 'parse',
  },
  {
    id: 'patched',
    label: 'the check step as the server runs it (shape, text, sizes, the patched validator)',
    upTo: 'request checks',
    base: 'parse',
  },
  { id: 'handler', label: 'the handler and its query (the full server)', server: 'plain', base: 'patched' },
  { id: 'metrics', label: 'Prometheus metrics (METRICS_PORT set)', server: 'with metrics', base: 'handler' },
  {
    id: 'traced',
    label: 'tracing on: every request sampled, its spans exported over OTLP/HTTP',
    server: 'with tracing',
    sampled: 1,
    base: 'handler',
    ratioTarget: 1.15,
  },
  {
    id: 'sampled',
    label: 'tracing on: one request in ten sampled and exported',
    server: 'with tracing',
    sampled: 0.1,
    base: 'handler',
    ratioTarget: 1.04,
  },
  {
    id: 'unsampled',
    label: 'tracing on: no request sampled (traceidratio 0)',
    server: 'with tracing',
    sampled: 0,
    base: 'handler',
    ratioTarget: 1.02,
  },
];
