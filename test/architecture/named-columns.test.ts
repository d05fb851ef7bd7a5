// The server's statements name their columns, never `*`: a column that a newer release's expand
// migration adds must change the shape of no result a running release reads (PostgreSQL refuses a
// prepared statement whose result changed: "cached plan must not change result type").
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/process.js';

const SELECTS_EVERY_COLUMN = /\.(selectAll|returningAll)\(|select\s+\*|returning\s+\*/i;

describe('the statements of the server', () => {
  it('select and return named columns only', () => {
    const server = join(projectRoot, 'server');
    const offending = readdirSync(server, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        readFileSync(join(server, file), 'utf8')
          .split('\n')
          .map((line, index) => ({ where: `server/${file}:${index + 1}`, line }))
          .filter(({ line }) => SELECTS_EVERY_COLUMN.test(line) && !line.trim().startsWith('//')),
      );
    expect(offending, offending.map(({ where, line }) => `${where}: ${line.trim()}`).join('\n')).toEqual([]);
  });
});
