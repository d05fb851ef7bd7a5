// The console's check of the body before it sends: Swagger UI checks the parameters (required,
// type, range, length, pattern) and that the body is JSON with its required top-level fields; this
// checks the whole body against the operation's schema, with the validators compiled at build time
// (body-validators.ts). What fails is shown under the body as the API would name it
// (`/body/sampling_rate`), and nothing is sent.
import type { Component, ConsoleSystem, FieldError, Immutable, Plugin } from './swagger-ui-system.js';

interface AjvError {
  instancePath: string;
  message?: string;
}

/** A validator of the build's module: true, or false with its errors. */
export type BodyValidator = ((body: unknown) => boolean) & { errors?: AjvError[] | null };

export function bodyErrors(validate: BodyValidator | undefined, text: unknown): FieldError[] {
  if (!validate || typeof text !== 'string' || text.trim() === '') return [];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return [{ path: '/body', message: `is not JSON (${(error as Error).message})` }];
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => ({
    path: `/body${error.instancePath}`,
    message: error.message ?? 'is not valid',
  }));
}

interface ExecuteProps {
  operation: Immutable;
  path: string;
  method: string;
  onExecute?: () => void;
  specActions: { execute(request: unknown): void };
}

export function bodyCheckPlugin(validators: Record<string, BodyValidator>): Plugin {
  return () => ({
    wrapComponents: {
      // Swagger UI's Execute button runs its own checks, then onExecute and specActions.execute.
      execute: (Original: Component<ExecuteProps>, system: ConsoleSystem) => (props: ExecuteProps) => {
        const passes = () => {
          const validate = validators[String(props.operation.get('operationId'))];
          const errors = bodyErrors(validate, system.oas3Selectors.requestBodyValue(props.path, props.method));
          if (errors.length > 0) system.fieldErrorsActions.setFieldErrors(props.path, props.method, errors);
          return errors.length === 0;
        };
        return system.React.createElement(Original, {
          ...props,
          onExecute: () => {
            if (passes()) props.onExecute?.();
          },
          specActions: {
            ...props.specActions,
            execute: (request: unknown) => {
              if (passes()) props.specActions.execute(request);
            },
          },
        });
      },
    },
  });
}
