// Whether an error means the database cannot serve now (answered 503 with Retry-After), as opposed
// to a bug in a query: SQLite's busy, locked or unwritable file, a socket that fails, and
// PostgreSQL's codes of the same meaning, its bounds on a wait among them.
import { sqliteCodeOf } from './sqlite-connection.js';

const UNAVAILABLE_SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY|NOTADB|CORRUPT)/;
// Node's socket errors, and PostgreSQL's connection exceptions (08), too many connections (53300),
// shutdown and recovery (57P01-57P03), and its bounds on a wait: the statement timeout
// (query_canceled, 57014), the lock timeout (lock_not_available, 55P03) and the idle-in-transaction
// timeout (25P03).
const UNAVAILABLE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  '53300',
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '55P03',
  '25P03',
]);
// `timeout expired`: pg's client, when opening a connection outlasts its connectionTimeoutMillis;
// `Query read timeout`, when a server answers nothing past its query_timeout.
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|^timeout expired$|^Query read timeout$|Connection terminated|connection.*(closed|ended)|Client has encountered a connection error/i;

/** Whether an error means the database cannot serve now (as opposed to a bug in a query). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code: errorCode, message } = err as { code?: unknown; message?: unknown };
  const code = sqliteCodeOf(err) ?? errorCode;
  if (
    typeof code === 'string' &&
    (UNAVAILABLE_SQLITE_CODES.test(code) || UNAVAILABLE_NETWORK_CODES.has(code) || code.startsWith('08'))
  )
    return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}
