// A PostgreSQL DATABASE_URL is taken when it names a database after the host, whatever its query
// string or fragment holds, even text that reads like a URL without one.
import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../server/store/database.js';

describe('a PostgreSQL DATABASE_URL that names a database', () => {
  it('is taken whatever its query string holds, even another URL that names none', () => {
    for (const url of [
      'postgres://app@db.example.com:5432/billing?options=postgres://replica.example.com',
      'postgresql://app@db.example.com/billing#postgres://',
    ]) {
      expect(parseDatabaseUrl(url)).toEqual({ kind: 'postgres', url });
    }
  });
});
