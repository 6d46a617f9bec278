import { z } from 'zod';
import type { RouteSpec } from './route.js';

/**
 * JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a contract: what a caller sends (`input`, before
 * transforms such as trimming) or what a text value becomes once parsed (`output`, for query parameters).
 * Refinements (a range across fields, a unique SKU) are the service's and stay in words.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return json;
}

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
