// The docs' workflows page: each consumer workflow of arazzo/workflows.arazzo.yaml with the inputs
// it needs, its steps in order (each linked to its operation in the reference, with what it sends,
// what it checks and what it passes on) and its outputs. Plain HTML with its styles inline: it
// loads nothing, like the changelog page.

import { type OpenApiDocument, specOperations } from '../../server/spec.js';
import { escapeHtml, inlineMarkdown } from '../shared/html.js';
import type { ArazzoDocument, ArazzoStep, ArazzoWorkflow } from '../workflows/arazzo.js';

export const WORKFLOWS_PAGE = 'workflows.html';

const code = (value: unknown) =>
  `<code>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</code>`;

/** The reference's route of an operation, `#/<tag>/<operationid>` as its renderer files it. */
export function referenceRoute(tag: string, operationId: string): string {
  return `./#/${tag.toLowerCase()}/${operationId.toLowerCase()}`;
}

function list(items: string[]): string {
  return items.length === 0 ? '' : `<ul>\n${items.map((item) => `<li>${item}</li>`).join('\n')}\n</ul>`;
}

function stepHtml(step: ArazzoStep, contract: OpenApiDocument): string {
  const found = specOperations(contract).find(({ operation }) => operation.operationId === step.operationId);
  const operation = found
    ? `<a href="${referenceRoute(found.operation.tags?.[0] ?? 'default', found.operation.operationId)}">${escapeHtml(found.operation.operationId)}</a> (<code>${found.method.toUpperCase()} ${escapeHtml(found.template)}</code>)`
    : `${code(step.operationId ?? '')} (not an operation of the contract)`;
  const sends = [
    ...(step.parameters ?? []).map(
      (parameter) => `${escapeHtml(parameter.in ?? '')} ${code(parameter.name)}: ${code(parameter.value)}`,
    ),
    ...(step.requestBody ? [`body: ${code(step.requestBody.payload)}`] : []),
  ];
  const checks = (step.successCriteria ?? []).map((criterion) => code(criterion.condition));
  const outputs = Object.entries(step.outputs ?? {}).map(([name, value]) => `${code(name)}: ${code(value)}`);
  return [
    `<li id="${escapeHtml(step.stepId)}"><h3>${escapeHtml(step.stepId)}: ${operation}</h3>`,
    step.description ? `<p>${inlineMarkdown(step.description)}</p>` : '',
    sends.length ? `<p>Sends</p>\n${list(sends)}` : '',
    checks.length ? `<p>Succeeds when</p>\n${list(checks)}` : '',
    outputs.length ? `<p>Passes on</p>\n${list(outputs)}` : '',
    '</li>',
  ]
    .filter(Boolean)
    .join('\n');
}

function workflowHtml(workflow: ArazzoWorkflow, document: ArazzoDocument, contract: OpenApiDocument): string {
  const required = new Set(workflow.inputs?.required ?? []);
  const inputs = Object.entries(workflow.inputs?.properties ?? {}).map(([name, schema]) => {
    const shared = schema.$ref ? document.components?.inputs?.[schema.$ref.split('/').pop() ?? ''] : undefined;
    const description = schema.description ?? shared?.description ?? '';
    return `${code(name)}${required.has(name) ? '' : ' (optional)'}: ${inlineMarkdown(description)}`;
  });
  const outputs = Object.entries(workflow.outputs ?? {}).map(([name, value]) => `${code(name)}: ${code(value)}`);
  return [
    `<section id="${escapeHtml(workflow.workflowId)}">`,
    `<h2>${escapeHtml(workflow.workflowId)}</h2>`,
    workflow.summary ? `<p><strong>${inlineMarkdown(workflow.summary)}</strong></p>` : '',
    workflow.description ? `<p>${inlineMarkdown(workflow.description.trim())}</p>` : '',
    inputs.length ? `<p>Inputs</p>\n${list(inputs)}` : '',
    `<p>Steps, in order</p>\n<ol>\n${workflow.steps.map((step) => stepHtml(step, contract)).join('\n')}\n</ol>`,
    outputs.length ? `<p>Outputs</p>\n${list(outputs)}` : '',
    '</section>',
  ]
    .filter(Boolean)
    .join('\n');
}

export function workflowsPage(contract: OpenApiDocument, document: ArazzoDocument): string {
  const title = `${contract.info.title}: workflows`;
  const contents = list(
    document.workflows.map(
      (workflow) =>
        `<a href="#${escapeHtml(workflow.workflowId)}">${escapeHtml(workflow.workflowId)}</a>: ${inlineMarkdown(workflow.summary ?? '')}`,
    ),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h2 { margin-top: 2.5rem; } h3 { font-size: 1rem; margin: 1rem 0 0.25rem; }
code { font-size: 0.9em; overflow-wrap: anywhere; }
a { color: #1d4ed8; }
ol > li > p { margin: 0.25rem 0; }
</style></head>
<body><p><a href="./">The API reference</a></p>
<h1>${escapeHtml(title)}</h1>
<p>What a consumer does with several operations in order, as <code>arazzo/workflows.arazzo.yaml</code> describes it (Arazzo 1.0). Each step calls an operation of the reference, sends what it lists (<code>$inputs</code> are the workflow's inputs, <code>$steps</code> what an earlier step passed on), succeeds when its conditions hold, and passes on its outputs. <code>npm run workflows</code> runs them against a deployment.</p>
${contents}
${document.workflows.map((workflow) => workflowHtml(workflow, document, contract)).join('\n')}
</body></html>
`;
}
