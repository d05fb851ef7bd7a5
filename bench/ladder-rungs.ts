// The rungs of the ladder: bare Express, then prefixes of the server's own list of layers
// (server/request-pipeline.ts), each longer than the one it is measured against. A rung names the
// last layer it mounts; the last rung mounts the whole list, and the metrics' rung the whole list
// as the server builds it with METRICS_PORT set. The released validator is measured against the
// same rung as the patched one, in its place.
import type { Layer, LayerName } from '../server/request-pipeline.js';

export interface Rung {
  id: string;
  label: string;
  /** The last layer of the server's list that the rung mounts; none for bare Express. */
  upTo?: LayerName;
  /** The list as built with the Prometheus metrics on. */
  metrics?: boolean;
  /** The validator as released, in place of the patched one. */
  releasedValidator?: boolean;
  /** The rung this one adds layers to; none for bare Express. */
  base?: string;
}

export const LADDER: Rung[] = [
  { id: 'bare', label: 'bare Express' },
  { id: 'log', label: 'request log', upTo: 'request log', base: 'bare' },
  { id: 'helmet', label: 'helmet', upTo: 'security headers', base: 'log' },
  {
    id: 'auth',
    label: 'the API router, the operation matched, authentication',
    upTo: 'authentication',
    base: 'helmet',
  },
  { id: 'limit', label: 'rate limit', upTo: 'rate limit', base: 'auth' },
  { id: 'kind', label: 'key kind', upTo: 'key kind', base: 'limit' },
  {
    id: 'parse',
    label: 'content type, 100-continue, JSON parser, strict query integers',
    upTo: 'request shape',
    base: 'kind',
  },
  { id: 'text', label: 'storable text, body sizes', upTo: 'body sizes', base: 'parse' },
  {
    id: 'released',
    label: 'express-openapi-validator as released',
    upTo: 'pending field errors',
    releasedValidator: true,
    base: 'text',
  },
  {
    id: 'patched',
    label: 'the validator with the route-matcher cache (patched)',
    upTo: 'pending field errors',
    base: 'text',
  },
  { id: 'handler', label: 'the handler and its query (the full server)', upTo: 'handler', base: 'patched' },
  { id: 'metrics', label: 'Prometheus metrics (METRICS_PORT set)', upTo: 'handler', metrics: true, base: 'handler' },
];

/** The layers a rung mounts: the server's list up to and with its last layer. */
export function rungLayers(rung: Rung, layers: readonly Layer[]): Layer[] {
  if (rung.upTo === undefined) return [];
  const last = layers.findIndex((layer) => layer.name === rung.upTo);
  if (last < 0) throw new Error(`rung ${rung.id}: the server has no layer ${rung.upTo}`);
  return layers.slice(0, last + 1);
}
