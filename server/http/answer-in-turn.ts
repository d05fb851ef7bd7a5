// One answer at a time on a connection. Node's HTTP server hands over every request it parses at
// once, pipelined ones included, and keeps each answer that cannot go out yet in memory: a client
// that pipelines requests for large pages and never reads would make the server build and hold
// every answer. Here a connection's next request waits, and the connection stops being read,
// until the answer before it is written out: its 'finish' comes once its last byte is handed to
// the kernel, which does not happen while the client reads nothing. So a connection holds at most
// one answer, plus the requests parsed from the data already read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

interface Turns {
  answering: boolean;
  waiting: [IncomingMessage, ServerResponse][];
  /** The request handed over last. */
  last?: IncomingMessage;
  /** What the connection does once it owes no answer, instead of reading on. */
  finally?: () => void;
}

const TURNS = Symbol('turns');

type TakesTurns = Socket & { [TURNS]?: Turns };

/** `serve`, called for one request of a connection at a time, in the order they came. */
export function answerInTurn(serve: Listener): Listener {
  const start = (socket: Socket, turns: Turns, req: IncomingMessage, res: ServerResponse) => {
    turns.answering = true;
    let ended = false;
    const next = () => {
      if (ended) return;
      ended = true;
      turns.answering = false;
      // A connection that closed leaves its waiting requests unanswered: nobody is there to read.
      if (socket.destroyed) {
        turns.waiting.length = 0;
        return;
      }
      const following = turns.waiting.shift();
      if (following) start(socket, turns, ...following);
      else if (turns.finally) turns.finally();
      // Node keeps its own pause (a response it buffers) over this resume.
      else socket.resume();
    };
    // 'close' alone when the connection went first.
    res.once('finish', next);
    res.once('close', next);
    serve(req, res);
  };

  return (req, res) => {
    const socket: TakesTurns = req.socket;
    socket[TURNS] ??= { answering: false, waiting: [] };
    const turns = socket[TURNS];
    turns.last = req;
    if (!turns.answering) {
      start(socket, turns, req, res);
      return;
    }
    turns.waiting.push([req, res]);
    socket.pause();
  };
}

/** The request a connection handed over last; none before its first. */
export function lastRequest(socket: Socket): IncomingMessage | undefined {
  return (socket as TakesTurns)[TURNS]?.last;
}

/** Calls `then` once the connection owes no answer: at once if it owes none, else after the last. */
export function afterAnswers(socket: Socket, then: () => void): void {
  const turns = (socket as TakesTurns)[TURNS];
  if (turns?.answering) turns.finally = then;
  else then();
}
