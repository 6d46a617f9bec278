import { z } from 'zod';

/**
 * JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a contract: what a caller sends (`input`, before
 * transforms such as trimming) or what a text value becomes once parsed (`output`, for query parameters).
 * Refinements (a range across fields, a unique SKU) are the service's and stay in words. OpenAPI and the
 * GraphQL inputs are both generated from it.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return json;
}
