// The parts of Swagger UI's plugin system the console uses, typed as far as it uses them. Its
// components are React components, and its state is Immutable.js: both are inside its bundle, and
// reached only through the system it hands to each plugin.

/** A React element; the console only passes them on. */
export type Element = unknown;
export type Component<P> = (props: P) => Element;

export interface ReactLike {
  createElement(type: unknown, props: object | null, ...children: unknown[]): Element;
  Fragment: unknown;
  useSyncExternalStore<T>(subscribe: (listener: () => void) => () => void, snapshot: () => T): T;
}

/** What Swagger UI's immutable values (a parameter, an operation) answer to. */
export interface Immutable {
  get(key: string): unknown;
  toJS(): unknown;
}

/**
 * An answer as Swagger UI gives it to `setResponse`: the response of a 2xx, and for any other
 * status its HTTP client's error (`{ error: true, err }`), which holds the response.
 */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  text?: unknown;
  err?: { response?: Answer };
}

/** The HTTP response an answer holds, whatever its status. */
export const answerOf = (answer: Answer): Answer => answer.err?.response ?? answer;

/** A field the answer or the check names: `metadata.errors`' shape. */
export interface FieldError {
  path: string;
  message: string;
}

export interface ConsoleSystem {
  React: ReactLike;
  getStore(): { subscribe(listener: () => void): () => void };
  specActions: {
    changeParam(pathMethod: [string, string], name: string, location: string, value: string): void;
  };
  oas3Selectors: { requestBodyValue(path: string, method: string): unknown };
  fieldErrorsActions: { setFieldErrors(path: string, method: string, errors: FieldError[]): void };
  fieldErrorsSelectors: { fieldErrors(path: string, method: string): FieldError[] };
}

export type SetResponse = (path: string, method: string, answer: Answer) => unknown;

/** A plugin: a function of the system, as Swagger UI's `plugins` option takes them. */
export type Plugin = (system: ConsoleSystem) => Record<string, unknown>;
