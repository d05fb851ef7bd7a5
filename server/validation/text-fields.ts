// Text that is not stored as it was sent, named field by field: text a database cannot store
// (U+0000, unpaired surrogates: domain/storable-text.ts), and bytes that are not UTF-8
// (not-utf8.ts), in the path parameters, the query and the JSON body of a request, at any depth,
// keys included. The query is read here as sent, byte by byte: Express's parser would read a
// `%FF` as it could.
import type { Request } from 'express';
import type { FieldError } from '../domain/field-errors.js';
import { unstorableTextErrors, unstorableTextReason } from '../domain/storable-text.js';
import { matchedRoute, requestContext } from '../http/request-context.js';
import { queryStringOf } from '../http/request-head.js';
import { decodedComponent, NOT_PERCENT_ENCODED_UTF8, notUtf8Fields } from './not-utf8.js';

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

export interface TextFieldErrors {
  errors: FieldError[];
  /** A path parameter is not percent-encoded UTF-8: nothing else can read the path. */
  pathUnreadable: boolean;
}

/** The fields of the request whose text would not be stored as sent; at most `max` of the body's. */
export function textFieldErrors(req: Request, max: number): TextFieldErrors {
  const context = requestContext(req);
  const queryString = queryStringOf(req.originalUrl);
  const errors: FieldError[] = [];
  let pathUnreadable = false;
  for (const [name, value] of Object.entries(matchedRoute(req).pathParameters)) {
    pathUnreadable ||= value === undefined;
    const reason = value === undefined ? NOT_PERCENT_ENCODED_UTF8 : unstorableTextReason(value);
    if (reason) errors.push({ path: `/path/${name}`, message: reason });
  }
  if (queryString) errors.push(...queryErrors(queryString));
  if (context.notUtf8Body) errors.push(...notUtf8Fields(context.notUtf8Body, '/body', max));
  errors.push(...unstorableTextErrors(req.body, '/body', max));
  return { errors, pathUnreadable };
}
