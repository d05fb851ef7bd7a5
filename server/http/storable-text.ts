// Refuses, with 400 naming each field, text that is not stored as it was sent: text a database
// cannot store (U+0000, unpaired surrogates: domain/storable-text.ts), and bytes that are not UTF-8
// (domain/not-utf8.ts), in the path parameters, the query and the JSON body of a request, at any
// depth, keys included. One pass over each, before the validator, so that the 400 names these
// fields alongside the validator's. A path parameter that is not percent-encoded UTF-8 cannot be
// read, and neither can the validator read its path: that 400 goes at once, with the fields found.
import type { RequestHandler } from 'express';
import { type FieldError, FieldValidationError } from '../domain/field-errors.js';
import { decodedComponent, NOT_PERCENT_ENCODED_UTF8, notUtf8Fields } from '../domain/not-utf8.js';
import { unstorableTextErrors, unstorableTextReason } from '../domain/storable-text.js';
import type { OpenApiDocument } from '../spec.js';
import { addFieldErrors } from './bad-request.js';
import { envelopeBounds } from './errors.js';
import { matchedOperation, requestContext } from './request-context.js';
import { queryStringOf } from './request-head.js';

/** A name or value of a query string decoded as a form does (`+` is a space); undefined when not percent-encoded UTF-8. */
function decodedQueryComponent(component: string): string | undefined {
  return decodedComponent(component.replaceAll('+', ' '));
}

function queryErrors(queryString: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const pair of queryString.split('&')) {
    const mark = pair.indexOf('=');
    const rawName = mark < 0 ? pair : pair.slice(0, mark);
    const name = decodedQueryComponent(rawName);
    const value = decodedQueryComponent(mark < 0 ? '' : pair.slice(mark + 1));
    const reason =
      name === undefined || value === undefined
        ? NOT_PERCENT_ENCODED_UTF8
        : (unstorableTextReason(name) ?? unstorableTextReason(value));
    // A name that does not decode is named as it was sent, as the validator names an unknown one.
    if (reason) errors.push({ path: `/query/${name ?? rawName}`, message: reason });
  }
  return errors;
}

/** After the operation match and the JSON body parser. */
export function checkStorableText(spec: OpenApiDocument): RequestHandler {
  const max = envelopeBounds(spec).fieldErrors;
  return (req, _res, next) => {
    const context = requestContext(req);
    const { pathParameters } = matchedOperation(req);
    const queryString = queryStringOf(req.originalUrl);
    const errors: FieldError[] = [];
    let pathUnreadable = false;
    for (const [name, value] of Object.entries(pathParameters)) {
      pathUnreadable ||= value === undefined;
      const reason = value === undefined ? NOT_PERCENT_ENCODED_UTF8 : unstorableTextReason(value);
      if (reason) errors.push({ path: `/path/${name}`, message: reason });
    }
    if (queryString) errors.push(...queryErrors(queryString));
    if (context.notUtf8Body) errors.push(...notUtf8Fields(context.notUtf8Body, '/body', max));
    errors.push(...unstorableTextErrors(req.body, '/body', max));
    if (pathUnreadable) throw new FieldValidationError(errors);
    addFieldErrors(req, errors.slice(0, max));
    next();
  };
}
