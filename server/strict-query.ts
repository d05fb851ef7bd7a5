// Query integers must be written as integers. The validator coerces with Number(), which also
// takes ' 5', '1e2', '0x10' and '5.0'; a contract that says `type: integer` means digits. The
// integer parameters are read from the spec, per operation.
import type { RequestHandler } from 'express';
import { FieldValidationError, type FieldError } from './domain/field-errors.js';
import type { OpenApiDocument } from './spec.js';

const INTEGER_LITERAL = /^-?\d+$/;

interface OperationQueryIntegers {
  method: string;
  path: RegExp;
  /** Parameter name -> whether an empty value (null) is allowed. */
  integers: Map<string, boolean>;
}

function schemaTypes(schema: Record<string, unknown>): string[] {
  return Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
}

function collect(spec: OpenApiDocument): OperationQueryIntegers[] {
  return Object.entries(spec.paths).flatMap(([template, item]) =>
    Object.entries(item).flatMap(([method, operation]) => {
      const integers = new Map<string, boolean>();
      for (const parameter of operation.parameters ?? []) {
        const types = schemaTypes(parameter.schema);
        if (parameter.in === 'query' && types.includes('integer')) integers.set(parameter.name, types.includes('null'));
      }
      if (integers.size === 0) return [];
      const path = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return [{ method: method.toUpperCase(), path, integers }];
    }),
  );
}

/** For the router mounted at the spec's server URL: paths are matched below it. */
export function strictQueryIntegers(spec: OpenApiDocument): RequestHandler {
  const operations = collect(spec);
  return (req, _res, next) => {
    const operation = operations.find((o) => o.method === req.method && o.path.test(req.path));
    if (!operation) return next();
    const errors: FieldError[] = [];
    const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    for (const [name, nullable] of operation.integers) {
      for (const value of query.getAll(name)) {
        if (!INTEGER_LITERAL.test(value) && !(nullable && value === '')) errors.push({ path: `/query/${name}`, message: 'must be an integer written in digits' });
      }
    }
    if (errors.length > 0) throw new FieldValidationError(errors);
    next();
  };
}
