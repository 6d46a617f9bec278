import type { z } from 'zod';
import { jsonSchemaOf } from '../src/contracts/json-schema.js';
import type { RouteSpec } from './route.js';

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

/** A query string cannot send null: its parameters are documented without the null a GraphQL argument accepts. */
function withoutNull(schema: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  const anyOf = schema.anyOf as Record<string, unknown>[] | undefined;
  const kept = anyOf?.filter((branch) => branch.type !== 'null');
  if (anyOf && kept?.length === 1) {
    const { anyOf: _branches, ...rest } = schema;
    return { ...rest, ...kept[0] };
  }
  return schema;
}

/** The query parameters and request body of a route's OpenAPI operation, generated from its contract. */
export function contractDocs(route: RouteSpec): Record<string, unknown> {
  const { input } = route;
  if (!input) return {};
  const docs: Record<string, unknown> = {};
  if (input.query) {
    const query = Object.entries(input.query.shape as Record<string, z.ZodType>).map(([name, field]) => {
      const { description, ...schema } = jsonSchemaOf(field, 'output');
      return { name, in: 'query', required: !accepts(field, undefined), ...(description ? { description } : {}), schema: withoutNull(schema) };
    });
    docs.parameters = [...((route.doc.parameters as unknown[]) ?? []), ...query];
  }
  if (input.body) {
    docs.requestBody = { required: !accepts(input.body, undefined), content: { 'application/json': { schema: jsonSchemaOf(input.body, 'input') } } };
  }
  return docs;
}
