// The consumer workflows (arazzo/workflows.arazzo.yaml), as the project reads them: each
// workflow's id, summary, inputs and steps, with the operation each step calls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../server/project-root.js';
import { parseSpecYaml } from '../../server/spec.js';

export const WORKFLOWS_FILE = join(projectRoot, 'arazzo', 'workflows.arazzo.yaml');

export interface ArazzoParameter {
  name: string;
  in?: string;
  value: unknown;
}

export interface ArazzoStep {
  stepId: string;
  description?: string;
  operationId?: string;
  parameters?: ArazzoParameter[];
  requestBody?: { contentType?: string; payload?: unknown };
  successCriteria?: { condition: string }[];
  outputs?: Record<string, string>;
}

export interface ArazzoWorkflow {
  workflowId: string;
  summary?: string;
  description?: string;
  inputs?: { required?: string[]; properties?: Record<string, { description?: string; $ref?: string }> };
  steps: ArazzoStep[];
  outputs?: Record<string, string>;
}

export interface ArazzoDocument {
  info: { title: string; version: string; description?: string };
  components?: { inputs?: Record<string, { description?: string }> };
  workflows: ArazzoWorkflow[];
}

export function loadWorkflows(file = WORKFLOWS_FILE): ArazzoDocument {
  return parseSpecYaml(readFileSync(file, 'utf8')) as ArazzoDocument;
}
