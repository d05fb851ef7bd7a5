// spec:diff and the consumer workflows: a change of the contract that takes away an operation a
// step calls, a parameter it sends or a part of the answer it reads is reported under the workflow
// and step, at the level the change has itself; a change that touches nothing a step uses, or that
// the workflows already follow, is not.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specChanges } from '../../scripts/spec-diff/engine/compare.js';
import { report } from '../../scripts/spec-diff/format/report.js';
import type { Document } from '../../scripts/spec-diff/revisions.js';
import { workflowBreaks } from '../../scripts/spec-diff/workflows.js';
import { type ArazzoDocument, loadWorkflows } from '../../scripts/workflows/arazzo.js';
import { type OpenApiDocument, parseSpecYaml, specOperation } from '../../server/spec.js';
import { projectRoot } from '../support/process.js';

const contract = parseSpecYaml(readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8')) as OpenApiDocument;
const workflows = loadWorkflows();

/** The contract with `edit` made to a copy of it. */
function edited(edit: (spec: OpenApiDocument) => void): OpenApiDocument {
  const copy = structuredClone(contract);
  edit(copy);
  return copy;
}

async function breaksOf(after: OpenApiDocument, used: ArazzoDocument = workflows) {
  const changes = await specChanges(contract as unknown as Document, after as unknown as Document);
  return { changes, breaks: workflowBreaks(changes, contract as unknown as Document, used) };
}

/** The steps of the workflows that satisfy `uses`, as `workflow, step`. */
const stepsThat = (uses: (step: ArazzoDocument['workflows'][number]['steps'][number]) => boolean) =>
  workflows.workflows.flatMap((workflow) =>
    workflow.steps.filter(uses).map((step) => `workflow ${workflow.workflowId}, step ${step.stepId}`),
  );

describe('spec:diff names the workflow and step a change breaks', () => {
  it('an operationId taken away: every step that calls it, at the level of the change', async () => {
    const { operation } = specOperation(contract, 'getKey');
    const { changes, breaks } = await breaksOf(
      edited((spec) => (specOperation(spec, 'getKey').operation.operationId = 'readKey')),
    );
    const change = changes.find((c) => c.id === 'api-operation-id-removed');
    expect(change).toBeDefined();
    const calling = stepsThat((step) => step.operationId === operation.operationId);
    expect(calling.length).toBeGreaterThan(0);
    expect(breaks.map((b) => b.where)).toEqual(calling);
    for (const broken of breaks) expect([broken.id, broken.level]).toEqual([change?.id, change?.level]);
  });

  it('a parameter renamed: every step that sends it, and the report shows them under the operation', async () => {
    const after = edited((spec) => {
      const { operation } = specOperation(spec, 'listPresetVersions');
      const parameters = (operation as unknown as { parameters: { name: string }[] }).parameters;
      for (const parameter of parameters) if (parameter.name === 'limit') parameter.name = 'page_size';
    });
    const { changes, breaks } = await breaksOf(after);
    const sending = stepsThat((step) => (step.parameters ?? []).some((p) => p.in === 'query' && p.name === 'limit'));
    expect(sending.length).toBeGreaterThan(0);
    expect(breaks.map((b) => b.where)).toEqual(sending);
    expect(new Set(breaks.map((b) => b.id))).toEqual(new Set(['request-parameter-removed']));
    const text = report('text', {
      from: { label: 'before', version: '1' },
      to: { label: 'after', version: '1' },
      changes: [...changes, ...breaks],
      documents: { before: contract as unknown as Document, after: after as unknown as Document },
    });
    for (const where of sending) expect(text).toContain(where);
  });

  it('a property of the answer taken away: only the steps that read it, in the status they expect', async () => {
    const { breaks } = await breaksOf(
      edited((spec) => {
        const metadata = spec.components.schemas.ErrorMetadata as { properties: Record<string, unknown> };
        delete metadata.properties.accepted_key_kinds;
      }),
    );
    const reading = stepsThat((step) =>
      Object.values(step.outputs ?? {})
        .concat((step.successCriteria ?? []).map((c) => c.condition))
        .some((expression) => expression.includes('/error/metadata/accepted_key_kinds')),
    );
    expect(reading.length).toBeGreaterThan(0);
    // The property is gone from every error answer of every operation; each step is named once.
    expect(breaks.map((b) => b.where)).toEqual(reading);
    expect(breaks.every((b) => b.what.includes('response 403'))).toBe(true);
  });

  it('a change that touches nothing a step uses, or that the workflows already follow, breaks none', async () => {
    const described = await breaksOf(
      edited((spec) => (specOperation(spec, 'getKey').operation.summary = 'Read a key.')),
    );
    expect(described.changes.length).toBeGreaterThan(0);
    expect(described.breaks).toEqual([]);
    const renamed = edited((spec) => (specOperation(spec, 'getKey').operation.operationId = 'readKey'));
    const following = structuredClone(workflows);
    for (const step of following.workflows.flatMap((workflow) => workflow.steps))
      if (step.operationId === 'getKey') step.operationId = 'readKey';
    expect((await breaksOf(renamed, following)).breaks).toEqual([]);
  });
});
