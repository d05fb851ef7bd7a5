// What a request's head says before anything else of it is read: whether it declares a body, and
// its query string.
import type { IncomingMessage } from 'node:http';

/** Whether the head announces a body: a Transfer-Encoding, or a Content-Length other than 0. */
export function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The query string of a request target as sent, without its `?`; empty when there is none. */
export function queryStringOf(target: string): string {
  const mark = target.indexOf('?');
  return mark < 0 ? '' : target.slice(mark + 1);
}
