// What the HTTP server answers when Node's parser cannot make a request of what a client sent (a
// head too large, a body shorter than its Content-Length when the client stops sending, a request
// that outlasts its timeout): the error envelope, with the status RFC 9110 and 9112 give it, on a
// connection that then closes. Node's own answer is a bare status line with no body.
import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { afterAnswers, lastRequest } from './answer-in-turn.js';
import { errorEnvelope } from './errors.js';

const MESSAGES = {
  400: 'The request could not be read: it is not well-formed HTTP/1.1, or its body ended before its Content-Length.',
  408: 'The request took too long to arrive.',
  431: 'The request header fields are too large.',
} as const;

const STATUS_BY_CODE: Record<string, keyof typeof MESSAGES> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** An HTTP/1.1 request without Host, which Node would answer with a bare 400 (RFC 9112 §3.2: a server MUST). */
export const MISSING_HOST = 'HTTP/1.1 requests must carry a Host header.';

/** The whole answer to such a request, bytes ready to write. */
export function unparsableRequestAnswer(code: string | undefined, message?: string): string {
  const status = STATUS_BY_CODE[code ?? ''] ?? 400;
  const text = JSON.stringify(errorEnvelope(status, message ?? MESSAGES[status]));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Cache-Control: no-store',
    'Connection: close',
    '',
    text,
  ].join('\r\n');
}

/** Whether the request lacks the Host that HTTP/1.1 requires; if so, it is answered 400 in the envelope, and closed. */
export function refusedWithoutHost(req: IncomingMessage, socket: Socket): boolean {
  if (req.httpVersion !== '1.1' || req.headers.host !== undefined) return false;
  socket.end(unparsableRequestAnswer(undefined, MISSING_HOST));
  return true;
}

export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A client that went away (a reset, a broken pipe) is answered by no one: the error destroyed
    // the socket before it came here, and ending it writes nothing.
    const answer = unparsableRequestAnswer(err.code);
    // A body that could not be read is its request's, answered at once. That request has no answer
    // yet: one given before its body is read closes the connection as soon as it is written.
    if (lastRequest(socket)?.complete === false) {
      socket.end(answer);
      return;
    }
    // A head that could not be read comes after the requests before it, answered first.
    afterAnswers(socket, () => socket.end(answer));
  });
}
