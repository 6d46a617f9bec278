import { z } from 'zod';
import { checkContract } from '../src/contracts/parse.js';
import { type FieldErrors, newFieldErrors, validationError } from '../src/kernel/errors.js';
import type { RestRequest, RouteSpec } from './route.js';

/** The keys an object contract declares (through pipes and preprocessing), or undefined when it has none to read. */
function declaredKeys(schema: z.ZodType | undefined): Set<string> | undefined {
  if (!schema) return new Set();
  if (schema instanceof z.ZodObject) return new Set(Object.keys(schema.shape));
  const def = (schema as { _zod?: { def?: { type?: string; in?: z.ZodType; out?: z.ZodType } } })._zod?.def;
  if (def?.type === 'pipe') return declaredKeys(def.in) ?? declaredKeys(def.out);
  return undefined;
}

/**
 * The request checked against the route's contract: path and query parsed (they arrive as text), the body
 * checked and passed on as sent, for the operation's own parse. Every part's problems are answered together.
 * A query parameter the contract does not declare is refused by name (a misspelled filter must not answer
 * an unfiltered list), and a missing required one is named in the message ("locationId is required").
 */
export function checkRouteInput(route: RouteSpec, request: RestRequest): RestRequest {
  const details: FieldErrors = newFieldErrors();
  const known = declaredKeys(route.input?.query);
  const unknown = known ? Object.keys(request.query).filter((key) => !known.has(key)) : [];
  for (const key of unknown) details[key] = ['Unknown query parameter'];
  if (!route.input) {
    if (unknown.length) throw validationError(details, `Unknown query parameter: ${unknown.join(', ')}`);
    return request;
  }
  const checked = { ...request };
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = route.input[part];
    if (!schema) continue;
    // A problem of the whole body (an array or a number where an object belongs) is named `body`.
    const result = checkContract(schema, request[part], '', part);
    if ('details' in result) Object.assign(details, result.details);
    else if (part !== 'body') checked[part] = result.data as never;
  }
  if (!Object.keys(details).length) return checked;
  if (unknown.length) throw validationError(details, `Unknown query parameter: ${unknown.join(', ')}`);
  const missing = known ? Object.keys(details).filter((key) => known.has(key) && request.query[key] === undefined && details[key]!.includes('Required')) : [];
  throw validationError(details, missing.length ? `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required` : undefined);
}
