// The rungs of the ladder: bare Express, then the server's layers added one at a time in the
// server's order. Each rung is measured against the rung it adds to; the patched validator is
// measured against the same rung as the released one, in its place.
export type RungId = 'log' | 'helmet' | 'parse' | 'released' | 'patched' | 'auth' | 'limit' | 'handler' | 'metrics';

export interface Rung {
  id: string;
  label: string;
  layers: RungId[];
  /** The rung this one adds a layer to; none for bare Express. */
  base?: string;
}

const upToParse: RungId[] = ['log', 'helmet', 'parse'];
export const LADDER: Rung[] = [
  { id: 'bare', label: 'bare Express', layers: [] },
  { id: 'log', label: 'request log', layers: ['log'], base: 'bare' },
  { id: 'helmet', label: 'helmet', layers: ['log', 'helmet'], base: 'log' },
  { id: 'parse', label: 'strict query integers + JSON parser', layers: upToParse, base: 'helmet' },
  {
    id: 'released',
    label: 'express-openapi-validator as released',
    layers: [...upToParse, 'released'],
    base: 'parse',
  },
  {
    id: 'patched',
    label: 'the validator with the route-matcher cache (patched)',
    layers: [...upToParse, 'patched'],
    base: 'parse',
  },
  { id: 'auth', label: 'authentication', layers: [...upToParse, 'patched', 'auth'], base: 'patched' },
  { id: 'limit', label: 'rate limit', layers: [...upToParse, 'patched', 'auth', 'limit'], base: 'auth' },
  {
    id: 'handler',
    label: 'the handler and its query (the full server)',
    layers: [...upToParse, 'patched', 'auth', 'limit', 'handler'],
    base: 'limit',
  },
  {
    id: 'metrics',
    label: 'Prometheus metrics (METRICS_PORT set)',
    layers: [...upToParse, 'patched', 'auth', 'limit', 'handler', 'metrics'],
    base: 'handler',
  },
];
