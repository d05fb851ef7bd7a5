// Refuses, with 400 naming each field, text that a database cannot store as it was sent (U+0000,
// unpaired surrogates: domain/storable-text.ts) in the path parameters, the query and the JSON
// body of a request, at any depth, keys included. One pass over each, before the validator, so
// that the 400 names these fields alongside the validator's.
import type { RequestHandler } from 'express';
import type { FieldError } from '../domain/field-errors.js';
import { unstorableTextErrors, unstorableTextReason } from '../domain/storable-text.js';
import type { OpenApiDocument } from '../spec.js';
import { envelopeBounds } from './errors.js';
import { matchedOperation } from './operation-matcher.js';
import { deferFieldErrors } from './request-shape.js';

/** After findOperation and the JSON body parser. */
export function checkStorableText(spec: OpenApiDocument): RequestHandler {
  const max = envelopeBounds(spec).fieldErrors;
  return (req, _res, next) => {
    const found = matchedOperation(req);
    if (!found) return next();
    const url = req.originalUrl;
    const mark = url.indexOf('?');
    const queryString = mark < 0 ? '' : url.slice(mark + 1);
    const errors: FieldError[] = [];
    // Path parameters as the match decoded them; one that is not percent-encoded UTF-8 is the validator's 400.
    for (const [name, value] of Object.entries(found.pathParams)) {
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
