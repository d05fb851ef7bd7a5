// A setting the server cannot run with: shown as one line, `Configuration error: ...`, and exit 1.
export class ConfigError extends Error {
  override name = 'ConfigError';
}
