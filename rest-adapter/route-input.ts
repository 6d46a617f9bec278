import { checkContract } from '../src/contracts/parse.js';
import { type FieldErrors, newFieldErrors, validationError } from '../src/kernel/errors.js';
import type { RestRequest, RouteSpec } from './route.js';

/**
 * The request checked against the route's contract: path and query parsed (they arrive as text), the body
 * checked and passed on as sent, for the operation's own parse. Every part's problems are answered together.
 */
export function checkRouteInput(route: RouteSpec, request: RestRequest): RestRequest {
  if (!route.input) return request;
  const details: FieldErrors = newFieldErrors();
  const checked = { ...request };
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = route.input[part];
    if (!schema) continue;
    const result = checkContract(schema, request[part]);
    if ('details' in result) Object.assign(details, result.details);
    else if (part !== 'body') checked[part] = result.data as never;
  }
  if (Object.keys(details).length) throw validationError(details);
  return checked;
}
