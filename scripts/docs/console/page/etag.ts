// After an answer with an ETag, an operation that takes If-Match gets that ETag in its If-Match
// field, so that the next send is conditional on the version just read or written.
import { type Answer, answerOf, type ConsoleSystem, type Plugin, type SetResponse } from './swagger-ui-system.js';

function header(answer: Answer, name: string): string | undefined {
  const found = Object.entries(answer.headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase());
  return found?.[1];
}

/** `conditional`: the operations that take the header, as `method path` (`patch /observability/destinations/{id}`). */
export function etagPlugin(conditional: readonly string[], conditionHeader: string): Plugin {
  const takesCondition = new Set(conditional);
  return () => ({
    statePlugins: {
      spec: {
        wrapActions: {
          setResponse:
            (original: SetResponse, system: ConsoleSystem) => (path: string, method: string, given: Answer) => {
              const result = original(path, method, given);
              const answer = answerOf(given);
              const etag = header(answer, 'ETag');
              const succeeded = answer.status !== undefined && answer.status >= 200 && answer.status < 300;
              if (etag && succeeded && takesCondition.has(`${method} ${path}`))
                system.specActions.changeParam([path, method], conditionHeader, 'header', etag);
              return result;
            },
        },
      },
    },
  });
}
