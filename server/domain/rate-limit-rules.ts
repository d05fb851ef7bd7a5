// The rate limit's rules that need no HTTP: which counter a client address counts on, and how long
// a refusal tells the client to wait.
import { isIPv6 } from 'node:net';

/** Seconds until the window ends: at least 1, so that a client never retries at once; the whole window when unknown. */
export function retryAfterSeconds(msBeforeNext: number | undefined, windowMs: number): number {
  return Math.max(1, Math.ceil((msBeforeNext ?? windowMs) / 1000));
}

/** The counter key of a client address: itself, or for IPv6 its /56 network, which one client often holds whole. */
export function addressKey(address: string): string {
  if (!isIPv6(address) || address.includes('.')) return address;
  // The groups before `::` and after it; all of them before it when there is none.
  const [head, tail] = address.split('::') as [string, string?];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // Zeros where `::` stands: none for an address of eight groups.
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const [a, b, c, d] = groups.map((group) => group.padStart(4, '0').toLowerCase());
  return `${a}:${b}:${c}:${d?.slice(0, 2)}00::/56`;
}
