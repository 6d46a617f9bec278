import { validationError } from '../../../kernel/errors.js';

/**
 * A stock line or lot named in an adjustment's body that is not the organization's: a field of the body
 * being validated, so 400 with its name (an id in the path or a filter is 404).
 */
export const unknownInBody = (field: string, what: string) => validationError({ [field]: [`${what} not found`] }, `${what} not found`);

export const signed = (delta: number) => (delta > 0 ? `+${delta}` : String(delta));
