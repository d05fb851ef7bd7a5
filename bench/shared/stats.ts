/** The middle value (the upper one of an even count); NaN for none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * A 95 % confidence interval of the median, free of any assumption about the distribution: the
 * values of ranks k and n - k + 1, k = ⌊n/2 - 0.98√n⌋ (the normal approximation of the binomial,
 * rounded to the safe side); the whole range for few values.
 */
export function medianInterval(values: number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.floor(sorted.length / 2 - 0.98 * Math.sqrt(sorted.length)));
  return [sorted[rank - 1] ?? Number.NaN, sorted[sorted.length - rank] ?? Number.NaN];
}

/** The value at `fraction` of the sorted values (0.95: the 95th percentile); NaN for none. */
export function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}
