// What stopped a command, in one line: the errors a user can cause (configuration, the contract,
// a busy port, an unreachable database) are said plainly, never as a stack trace.
import { ConfigError } from './config-error.js';
import { SecretsKeyMismatch } from './secrets-check.js';
import { ContractError } from './spec.js';
import { DatabaseOpenError, isDatabaseUnavailable } from './store/database.js';
import { MigrationRefusal } from './store/migrate.js';
import { DatabaseRefusal } from './store/refusal.js';

/** `unexpected`: what to say of any other error, by default that it may be a bug and where to see more. */
export function describeFailure(err: unknown, unexpected: (message: string) => string = withDebugHint): string {
  if (err instanceof ConfigError) return `Configuration error: ${err.message}`;
  if (err instanceof ContractError) return `Contract error: ${err.message}`;
  if (err instanceof SecretsKeyMismatch) return `Secrets key error: ${err.message}`;
  if (err instanceof DatabaseOpenError || err instanceof MigrationRefusal || err instanceof DatabaseRefusal)
    return err.message;
  const {
    code,
    message,
    address,
    port,
    setting = 'PORT',
  } = err as {
    code?: unknown;
    message?: unknown;
    address?: unknown;
    port?: unknown;
    /** The variable that chose the port, when it is not PORT. */
    setting?: string;
  };
  const where = `${String(address)}:${String(port)}`;
  if (code === 'EADDRINUSE')
    return `Cannot listen on ${where}: the address is already in use. Stop what uses it, or set ${setting} to a free port.`;
  if (code === 'EACCES' && port !== undefined)
    return `Cannot listen on ${where}: permission denied. Set ${setting} to a port above 1023.`;
  if (code === 'EADDRNOTAVAIL')
    return `Cannot listen on ${where}: no such address on this machine. Set HOST to one of its addresses.`;
  if (isDatabaseUnavailable(err)) return `Cannot reach the database of DATABASE_URL: ${String(message)}`;
  return unexpected(String(message ?? err));
}

function withDebugHint(message: string): string {
  return `Failed: ${message}${process.env.LOG_LEVEL === 'debug' ? '' : ' (LOG_LEVEL=debug shows where)'}`;
}
