// What a change of the contract breaks of the consumer workflows (arazzo/workflows.arazzo.yaml):
// a change to an operation a step calls that takes the operation away, or changes a parameter the
// step sends or a part of the answer it reads (in its outputs or its success criteria), is
// reported again under the workflow and step, at the level of the change itself.
import { type OpenApiDocument, specOperations } from '../../server/spec.js';
import type { ArazzoDocument, ArazzoStep } from '../workflows/arazzo.js';
import type { Change } from './engine/findings.js';
import type { Document } from './revisions.js';

/** The operation of each operationId, as a change names it: `GET /keys/{hash}`. */
function operationKeys(spec: Document): Map<string, string> {
  return new Map(
    specOperations(spec as unknown as OpenApiDocument).map(({ method, template, operation }) => [
      operation.operationId,
      `${method.toUpperCase()} ${template}`,
    ]),
  );
}

const TAKES_THE_OPERATION_AWAY = /^(api-operation-id-removed|api(-path)?-removed-)/;

/** `/error/metadata/accepted_key_kinds/0` as a change names the place: `error.metadata.accepted_key_kinds[]`. */
function schemaPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[]` : path ? `${path}.${segment}` : segment), '');
}

/** What the step reads of the answer: the places of the body and the headers, and the statuses it expects. */
function readsOf(step: ArazzoStep): { body: string[]; headers: string[]; statuses: string[] } {
  const expressions = [
    ...Object.values(step.outputs ?? {}),
    ...(step.successCriteria ?? []).map((criterion) => criterion.condition),
  ];
  const text = expressions.join(' ');
  return {
    body: [...text.matchAll(/\$response\.body#(\/[^\s]*)/g)].map((match) => schemaPath(match[1] ?? '')),
    headers: [...text.matchAll(/\$response\.header\.([A-Za-z0-9-]+)/g)].map((match) => (match[1] ?? '').toLowerCase()),
    statuses: [...text.matchAll(/\$statusCode\s*==\s*(\d{3})/g)].map((match) => match[1] ?? ''),
  };
}

const within = (path: string, place: string) =>
  path === place || path.startsWith(`${place}.`) || path.startsWith(`${place}[]`);

type Reads = ReturnType<typeof readsOf>;

/** Why the change breaks the step, or undefined when it does not touch what the step uses (`reads`). */
function breaks(change: Change, step: ArazzoStep, reads: Reads): string | undefined {
  if (TAKES_THE_OPERATION_AWAY.test(change.id)) return `it calls ${step.operationId}`;
  const sent = (step.parameters ?? []).find(
    (parameter) => change.where === `${parameter.in} parameter ${parameter.name}`,
  );
  if (sent) return `it sends the ${sent.in} parameter ${sent.name}`;
  const answer = /^response (\d{3}) (?:header (\S+)|[^.\s]+\.(.+))$/.exec(change.where);
  if (!answer) return undefined;
  const [, status = '', header, place] = answer;
  if (reads.statuses.length > 0 && !reads.statuses.includes(status)) return undefined;
  if (header !== undefined && reads.headers.includes(header.toLowerCase())) return `it reads the header ${header}`;
  const read = place === undefined ? undefined : reads.body.find((path) => within(path, place));
  return read === undefined ? undefined : `it reads ${read} of the answer`;
}

/** Each change that breaks a step of a workflow, as a change of its own under that workflow and step. */
export function workflowBreaks(changes: readonly Change[], before: Document, workflows: ArazzoDocument): Change[] {
  const keys = operationKeys(before);
  return workflows.workflows.flatMap((workflow) =>
    workflow.steps.flatMap((step) => {
      const key = keys.get(step.operationId ?? '');
      if (key === undefined) return [];
      const reads = readsOf(step);
      return changes.flatMap((change) => {
        const why = change.operation === key ? breaks(change, step, reads) : undefined;
        return why === undefined
          ? []
          : [
              {
                ...change,
                where: `workflow ${workflow.workflowId}, step ${step.stepId}`,
                what: `${why}: ${change.where}, ${change.what}`,
              },
            ];
      });
    }),
  );
}
