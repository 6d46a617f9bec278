import { expect } from 'vitest';
import { refusalOf } from './graphql.js';
import type { TestServer } from './server.js';

/** POST /graphql expecting no errors: the data. */
export async function graphqlData(server: TestServer, token: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await server.graphql(query, variables, token);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data;
}

/** POST /graphql expecting errors: the first error's extensions. */
export async function graphqlError(server: TestServer, token: string | undefined, query: string, variables: Record<string, unknown> = {}) {
  const res = await server.graphql(query, variables, token);
  expect(res.body.errors?.length, JSON.stringify(res.body)).toBeGreaterThan(0);
  return res.body.errors[0].extensions as { code: string; details?: Record<string, string[]> };
}

/**
 * POST /graphql of a mutation its input must refuse (the document selects `${REFUSAL}`): no top-level
 * error, and its one root field's typed refusal as `{type, code, message, details}`.
 */
export async function graphqlRefusal(server: TestServer, token: string, query: string, variables: Record<string, unknown> = {}) {
  const data = await graphqlData(server, token, query, variables);
  const [field] = Object.values(data) as Parameters<typeof refusalOf>[0][];
  expect(field?.__typename, JSON.stringify(data)).toMatch(/Error$/);
  return refusalOf(field!);
}

/** POST /api/products (201): the new product's id. */
export async function createProduct(server: TestServer, token: string, sku: string, name = `Product ${sku}`): Promise<string> {
  const res = await server.call('POST', '/api/products', { token, body: { sku, name } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}
