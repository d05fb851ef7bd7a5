// Long work's progress on a terminal: one line on stderr, rewritten in place at most a few times a
// second, and ended by a newline when the work ends. Where stderr is no terminal (a pipe, a log,
// CI), nothing is written: what the command prints on stdout is its whole result.

export interface ProgressLine {
  /** The line as it stands now; written when the last write is old enough, or when forced. */
  update(text: string, force?: boolean): void;
  /** Writes the last text given, if any, and ends the line. */
  end(): void;
}

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** How often the line is rewritten at most, in ms. */
export const PROGRESS_INTERVAL_MS = 250;

export function progressLine(
  stream: ProgressStream = process.stderr,
  now: () => number = () => performance.now(),
): ProgressLine {
  if (stream.isTTY !== true) return { update: () => undefined, end: () => undefined };
  let writtenAt = Number.NEGATIVE_INFINITY;
  let last: string | undefined;
  /** The text last written, as given, and the line it was written as (cut to the width). */
  let written: string | undefined;
  let shown: string | undefined;
  const write = (text: string) => {
    // Cut to the terminal's width, so that the line never wraps and \r always returns to its start.
    const width = Math.max(20, (stream.columns ?? 80) - 1);
    const line = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    stream.write(`\r${line}${' '.repeat(Math.max(0, (shown?.length ?? 0) - line.length))}`);
    written = text;
    shown = line;
    writtenAt = now();
  };
  return {
    update(text, force = false) {
      last = text;
      if (force || now() - writtenAt >= PROGRESS_INTERVAL_MS) write(text);
    },
    end() {
      if (last !== undefined && last !== written) write(last);
      if (shown !== undefined) stream.write('\n');
      last = undefined;
      written = undefined;
      shown = undefined;
    },
  };
}

/** A duration in words a terminal line can hold: `45 s`, `3 min 20 s`, `2 h 5 min`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
