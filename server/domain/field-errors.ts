// A rule broken by one field of the request, named as the error envelope names fields.
import type { components } from '../../generated/api.js';

export type FieldError = components['schemas']['FieldError'];

/** Thrown by domain rules; the error handler turns it into a 400 listing every field. */
export class FieldValidationError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => `${e.path} ${e.message}`).join('; '));
    this.name = 'FieldValidationError';
  }
}
