import { z } from 'zod';
import type { RouteSpec } from './route.js';

const COMPONENTS = '#/components/schemas/';

/** Leaves out what zod adds for its own checks and a reader does not need: the safe-integer range, the ISO regexes behind a format. */
function tidy({ jsonSchema }: { jsonSchema: Record<string, unknown> }) {
  if (jsonSchema.type === 'integer' && jsonSchema.minimum === Number.MIN_SAFE_INTEGER && jsonSchema.maximum === Number.MAX_SAFE_INTEGER) {
    delete jsonSchema.minimum;
    delete jsonSchema.maximum;
  }
  if (jsonSchema.format && jsonSchema.pattern) delete jsonSchema.pattern;
}

const toComponentRefs = <T>(json: T): T => JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', `"${COMPONENTS}`));

/**
 * JSON Schema (2020-12) of a response body, generated from its zod schema. Parts named with `.meta({ id })`
 * become $refs and are added to `components` (the same name must always mean the same schema). Generated
 * from the input side, so objects stay open (no additionalProperties: false): an answer may gain a property
 * without breaking clients that validate it.
 */
function responseSchemaOf(schema: z.ZodType, components: Record<string, unknown>): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', override: tidy }) as Record<string, unknown>;
  const { $schema: _dialect, $defs, ...json } = toComponentRefs(generated);
  for (const [name, body] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
    if (name === '__shared' || (name in components && JSON.stringify(components[name]) !== JSON.stringify(body))) {
      throw new Error(`OpenAPI component ${name}: two different response schemas claim the name`);
    }
    components[name] = body;
  }
  return json;
}

/** The response objects of an operation with each zod schema replaced by its JSON Schema; plain JSON Schema stays as written. */
export function responseDocs(responses: Record<string, any>, components: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const schema = response?.content?.['application/json']?.schema;
      if (!(schema instanceof z.ZodType)) return [status, response];
      return [status, { ...response, content: { ...response.content, 'application/json': { ...response.content['application/json'], schema: responseSchemaOf(schema, components) } } }];
    }),
  );
}

/** The zod schema a route documents for a status (its body), if any: what tests parse actual answers with. */
export function documentedResponse(route: Pick<RouteSpec, 'doc'>, status: number): z.ZodType | undefined {
  const schema = (route.doc.responses[status] as any)?.content?.['application/json']?.schema;
  return schema instanceof z.ZodType ? schema : undefined;
}
