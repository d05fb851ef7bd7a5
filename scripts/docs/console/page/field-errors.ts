// The field errors of an operation, shown under the fields they name: the `metadata.errors` of a
// 4xx answer, or what the console's own check of the body found before sending (body-check.ts).
// A parameter's errors go in a row under it; the body's, and any naming no parameter of the
// operation, under the parameters and the body. An answer that is not a 4xx clears them.
import { fieldOf, namesParameter } from './field-paths.js';
import {
  type Answer,
  answerOf,
  type Component,
  type ConsoleSystem,
  type FieldError,
  type Immutable,
  type Plugin,
  type SetResponse,
} from './swagger-ui-system.js';

const SET_FIELD_ERRORS = 'console_set_field_errors';
const NONE: FieldError[] = [];
const key = (path: string, method: string) => `${method} ${path}`;

interface StateMap {
  get(key: string): FieldError[] | undefined;
  set(key: string, value: FieldError[]): StateMap;
}

/** The field errors of a 4xx answer, as its body's `error.metadata.errors` gives them. */
export function answerFieldErrors(given: Answer): FieldError[] {
  const answer = answerOf(given);
  if (answer.status === undefined || answer.status < 400 || answer.status >= 500) return NONE;
  let body = answer.body;
  if (body === undefined && typeof answer.text === 'string') {
    try {
      body = JSON.parse(answer.text);
    } catch {
      return NONE;
    }
  }
  const errors = (body as { error?: { metadata?: { errors?: unknown } } } | null)?.error?.metadata?.errors;
  if (!Array.isArray(errors)) return NONE;
  return errors.flatMap((error: { path?: unknown; message?: unknown }) =>
    typeof error?.path === 'string' ? [{ path: error.path, message: String(error.message ?? '') }] : [],
  );
}

function useFieldErrors(system: ConsoleSystem, path: string, method: string): FieldError[] {
  const store = system.getStore();
  return system.React.useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => system.fieldErrorsSelectors.fieldErrors(path, method),
  );
}

function errorList(system: ConsoleSystem, errors: FieldError[], label: string) {
  const { createElement } = system.React;
  // The alert around the list, not on it: a role on the list would take its items out of it.
  return createElement(
    'div',
    { role: 'alert', 'aria-label': label },
    createElement(
      'ul',
      { className: 'console-field-errors' },
      ...errors.map((error) =>
        createElement(
          'li',
          { key: `${error.path} ${error.message}`, 'data-path': error.path },
          `${error.path}: ${error.message}`,
        ),
      ),
    ),
  );
}

interface RowProps {
  param: Immutable;
  pathMethod: [string, string];
}

interface ParametersProps {
  parameters?: Immutable;
  pathMethod: [string, string];
}

const parameterOf = (param: Immutable) => ({ in: String(param.get('in')), name: String(param.get('name')) });

export const fieldErrorsPlugin: Plugin = () => ({
  statePlugins: {
    fieldErrors: {
      actions: {
        setFieldErrors: (path: string, method: string, errors: FieldError[]) => ({
          type: SET_FIELD_ERRORS,
          payload: { key: key(path, method), errors },
        }),
      },
      reducers: {
        [SET_FIELD_ERRORS]: (state: StateMap, action: { payload: { key: string; errors: FieldError[] } }) =>
          state.set(action.payload.key, action.payload.errors),
      },
      selectors: {
        fieldErrors: (state: StateMap, path: string, method: string) => state.get(key(path, method)) ?? NONE,
      },
    },
    spec: {
      wrapActions: {
        setResponse:
          (original: SetResponse, system: ConsoleSystem) => (path: string, method: string, answer: Answer) => {
            const result = original(path, method, answer);
            system.fieldErrorsActions.setFieldErrors(path, method, answerFieldErrors(answer));
            return result;
          },
      },
    },
  },
  wrapComponents: {
    // A table row of its own under the parameter's row, spanning the table.
    parameterRow: (Original: Component<RowProps>, system: ConsoleSystem) => (props: RowProps) => {
      const [path, method] = props.pathMethod;
      const errors = useFieldErrors(system, path, method).filter((error) =>
        namesParameter(error.path, parameterOf(props.param)),
      );
      const { createElement, Fragment } = system.React;
      const row = createElement(Original, props);
      if (errors.length === 0) return row;
      const name = String(props.param.get('name'));
      return createElement(
        Fragment,
        null,
        row,
        createElement('tr', null, createElement('td', { colSpan: 2 }, errorList(system, errors, `Errors of ${name}`))),
      );
    },
    parameters: (Original: Component<ParametersProps>, system: ConsoleSystem) => (props: ParametersProps) => {
      const [path, method] = props.pathMethod;
      const parameters = ((props.parameters?.toJS() ?? []) as { in: string; name: string }[]).map((p) => ({
        in: p.in,
        name: p.name,
      }));
      const rest = useFieldErrors(system, path, method).filter(
        (error) => !parameters.some((parameter) => namesParameter(error.path, parameter)),
      );
      const { createElement, Fragment } = system.React;
      const section = createElement(Original, props);
      if (rest.length === 0) return section;
      const inBody = rest.every((error) => fieldOf(error.path)?.in === 'body');
      return createElement(Fragment, null, section, errorList(system, rest, inBody ? 'Errors of the body' : 'Errors'));
    },
  },
});
