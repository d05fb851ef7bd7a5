// Refuses, with 400 naming each field, text that a database cannot store as it was sent (U+0000,
// unpaired surrogates: domain/storable-text.ts) in the path parameters, the query and the JSON
// body of a request, at any depth, keys included. One pass over each, before the validator, so
// that the 400 names these fields alongside the validator's.
import type { RequestHandler } from 'express';
import type { FieldError } from '../domain/field-errors.js';
import { unstorableTextErrors, unstorableTextReason } from '../domain/storable-text.js';
import { apiBasePaths, type OpenApiDocument } from '../spec.js';
import { envelopeBounds } from './errors.js';
import { deferFieldErrors, matchedOperation } from './request-shape.js';

/** The path parameters of a request path below a base path, decoded, by the template's names. */
function pathParameters(template: string, below: string): [string, string][] {
  const names = template.split('/');
  const values = below.split('/');
  return names.flatMap((segment, index): [string, string][] => {
    const value = values[index];
    if (!segment.startsWith('{') || value === undefined) return [];
    try {
      return [[segment.slice(1, -1), decodeURIComponent(value)]];
    } catch {
      // Not percent-encoded UTF-8: the router refuses it on its own.
      return [];
    }
  });
}

/** After findOperation and the JSON body parser. */
export function checkStorableText(spec: OpenApiDocument): RequestHandler {
  const basePaths = apiBasePaths(spec);
  const max = envelopeBounds(spec).fieldErrors;
  return (req, _res, next) => {
    const found = matchedOperation(req);
    if (!found) return next();
    const url = req.originalUrl;
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const queryString = mark < 0 ? '' : url.slice(mark + 1);
    const base = basePaths.find((candidate) => path.startsWith(`${candidate}/`)) ?? '';
    const errors: FieldError[] = [];
    for (const [name, value] of pathParameters(found.template, path.slice(base.length))) {
      const reason = unstorableTextReason(value);
      if (reason) errors.push({ path: `/path/${name}`, message: reason });
    }
    if (queryString) {
      for (const [name, value] of new URLSearchParams(queryString)) {
        const reason = unstorableTextReason(name) ?? unstorableTextReason(value);
        if (reason) errors.push({ path: `/query/${name}`, message: reason });
      }
    }
    errors.push(...unstorableTextErrors(req.body, '/body', max));
    deferFieldErrors(req, errors.slice(0, max));
    next();
  };
}
