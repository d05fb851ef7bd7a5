import { describe, expect, it } from 'vitest';
import { formatDuration, PROGRESS_INTERVAL_MS, progressLine } from '../../server/provisioning/progress-line.js';

function terminal(columns = 80) {
  const written: string[] = [];
  return { stream: { isTTY: true, columns, write: (text: string) => written.push(text) }, written };
}

describe('the progress line', () => {
  it('writes nothing where stderr is no terminal', () => {
    const written: string[] = [];
    const line = progressLine({ isTTY: false, write: (text: string) => written.push(text) });
    line.update('copying', true);
    line.end();
    expect(written).toEqual([]);
  });

  it('rewrites one line in place, at most once an interval, and ends it with the last text', () => {
    let clock = 0;
    const { stream, written } = terminal();
    const line = progressLine(stream, () => clock);
    line.update('rows 1');
    clock += PROGRESS_INTERVAL_MS - 1;
    line.update('rows 2');
    clock += 1;
    line.update('rows 3');
    line.update('rows 4');
    line.end();
    expect(written).toEqual(['\rrows 1', '\rrows 3', '\rrows 4', '\n']);
  });

  it('writes at once when forced, and blanks what a longer line left', () => {
    const { stream, written } = terminal();
    const line = progressLine(stream, () => 0);
    line.update('a longer line');
    line.update('short', true);
    expect(written).toEqual(['\ra longer line', `\rshort${' '.repeat(8)}`]);
  });

  it('never wraps: a line wider than the terminal is cut', () => {
    const { stream, written } = terminal(30);
    progressLine(stream, () => 0).update('x'.repeat(50));
    expect(written).toEqual([`\r${'x'.repeat(28)}…`]);
  });

  it('keeps a line exactly as wide as the terminal allows, and ends a cut line without writing it again', () => {
    const { stream, written } = terminal(30);
    const line = progressLine(stream, () => 0);
    line.update('y'.repeat(29));
    line.update('x'.repeat(50), true);
    line.end();
    expect(written).toEqual([`\r${'y'.repeat(29)}`, `\r${'x'.repeat(28)}…`, '\n']);
  });

  it('writes the last text at its end when the interval held it back', () => {
    let clock = 0;
    const { stream, written } = terminal();
    const line = progressLine(stream, () => clock);
    line.update('rows 1');
    clock += PROGRESS_INTERVAL_MS - 1;
    line.update('rows 2');
    line.end();
    expect(written).toEqual(['\rrows 1', '\rrows 2', '\n']);
  });

  it('ends nothing it never began', () => {
    const { stream, written } = terminal();
    progressLine(stream, () => 0).end();
    expect(written).toEqual([]);
  });
});

describe('durations on the line', () => {
  it.each([
    [0.4, '0 s'],
    [59.4, '59 s'],
    [60, '1 min 0 s'],
    [200, '3 min 20 s'],
    [3599, '59 min 59 s'],
    [3600, '1 h 0 min'],
    [7500, '2 h 5 min'],
    [-3, '0 s'],
  ])('%s s is %s', (seconds, words) => {
    expect(formatDuration(seconds)).toBe(words);
  });
});
