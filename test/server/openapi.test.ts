import { createConfig, lintFromString } from '@redocly/openapi-core';
import { type GraphQLObjectType, getNamedType, isObjectType, Kind, parse, type SelectionSetNode } from 'graphql';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../rest-adapter/all-routes.js';
import { ERROR_CODES } from '../../src/kernel/errors.js';
import { schema } from '../../src/schema/index.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await startTestServer();
  doc = (await server.call('GET', '/api/openapi.json')).body;
});
afterAll(() => server?.close());

const toOpenApi = (path: string) => path.replace(/^\/api/, '').replace(/:(\w+)/g, '{$1}');
const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  );

/** Every permission named in the authScopes of the fields a selection set reaches, walked by hand from the root type. */
function demanded(type: GraphQLObjectType, selectionSet: SelectionSetNode, found = new Set<string>()): Set<string> {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) demanded(type, selection.selectionSet, found);
    if (selection.kind !== Kind.FIELD || selection.name.value.startsWith('__')) continue;
    const field = type.getFields()[selection.name.value]!;
    const scopes = JSON.stringify((field.extensions as any).pothosOptions?.authScopes ?? {});
    for (const [, permission] of scopes.matchAll(/"permission":"([^"]+)"/g)) found.add(permission!);
    const next = getNamedType(field.type);
    if (selection.selectionSet && isObjectType(next)) demanded(next, selection.selectionSet, found);
  }
  return found;
}

describe('GET /api/openapi.json', () => {
  it('is OpenAPI 3.1, version 1.0.0, served under /api with a bearer scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers[0].url).toBe(`${server.url}/api`);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const path of Object.keys(doc.paths)) expect(path.startsWith('/api')).toBe(false);
  });

  it('lists exactly the paths and methods the router serves', () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const registered = server.handler.rest.registered().map(([method, path]) => `${method} ${toOpenApi(path)}`);
    registered.push('GET /openapi.json', 'GET /docs');
    expect(documented).toEqual(registered.sort());
  });

  it('gives every operation a summary, a tag and responses, and resolves every $ref', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of refs) {
      const name = ref.split('/').pop()!.replace('"', '');
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    for (const methods of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(methods)) {
        expect(operation.summary).toBeTruthy();
        expect(operation.tags.length).toBeGreaterThan(0);
        expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
      }
    }
  });

  it('gives every operation a unique, camelCase operationId, and every tag it uses a description', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    const described = new Map((doc.tags as { name: string; description: string }[]).map((t) => [t.name, t.description]));
    for (const { operation } of operations()) for (const tag of operation.tags) expect(described.get(tag), tag).toBeTruthy();
  });

  it('states in x-permissions exactly the permissions the authScopes of the GraphQL fields demand', () => {
    const byKey = new Map(operations().map(({ key, operation }) => [key, operation]));
    for (const route of allRoutes) {
      const definition = parse(route.operation).definitions[0]!;
      if (definition.kind !== Kind.OPERATION_DEFINITION) throw new Error('not an operation');
      const root = definition.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
      const expected = [...demanded(root, definition.selectionSet)].sort();
      const operation = byKey.get(`${route.method} ${toOpenApi(route.path)}`);
      expect(operation['x-permissions'] ?? [], `${route.method} ${route.path}`).toEqual(expected);
    }
    // Spot checks of what the derivation gives: a field that needs two permissions, and a plan capability.
    expect(byKey.get('GET /products/{id}/inventory-levels')['x-permissions']).toEqual(['inventory.read', 'products.read']);
    expect(byKey.get('POST /forecast/events')).toMatchObject({ 'x-permissions': ['forecast.write'], 'x-plan-capability': 'ai.forecasting.demand' });
    expect(byKey.get('POST /import/catalog')['x-scopes']).toEqual(['import:write']);
  });

  it('has one schema per error status: no oneOf in an error response, and the oneOf left apart by type or by an enum', () => {
    for (const { key, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
        if (Number(status) >= 400) expect(JSON.stringify(response), `${key} ${status}`).not.toContain('oneOf');
      }
    }
    const oneOfs: any[][] = [];
    JSON.stringify(doc, (k, v) => (k === 'oneOf' && oneOfs.push(v), v));
    for (const branches of oneOfs) {
      // Distinct JSON types, or each branch pins `type` (or another discriminator, such as an action body's `action`) to its own value.
      const kinds = branches.map((b) => b.type ?? '');
      const pinnedBy = (name: string) => branches.map((b) => JSON.stringify(b.properties?.[name]?.enum ?? b.properties?.[name]?.const ?? null));
      const names = new Set(branches.flatMap((b) => Object.keys(b.properties ?? {})));
      const discriminated = [...names].some((name) => !pinnedBy(name).includes('null') && new Set(pinnedBy(name)).size === branches.length);
      expect(new Set(kinds).size === branches.length || discriminated).toBe(true);
    }
  });

  it('types the code of each error status as the enum of its codes, from the one code table', () => {
    const byStatus = new Map<number, string[]>();
    for (const [code, { status }] of Object.entries(ERROR_CODES)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    for (const [status, component] of [[400, 'BadRequestError'], [401, 'UnauthorizedError'], [403, 'ForbiddenError'], [404, 'NotFoundError'], [409, 'ConflictError'], [413, 'PayloadTooLargeError'], [429, 'RateLimitedError']] as const) {
      const schema = doc.components.schemas[component];
      expect(schema.properties.code.enum, component).toEqual(byStatus.get(status));
      expect(schema.required, component).toContain('code');
    }
    // Each operation's 404 refers to the 404 body, so a client narrows `code` to NOT_FOUND there.
    const notFound = doc.paths['/products/{id}'].get.responses['404'];
    expect(JSON.stringify(notFound)).toContain('#/components/schemas/NotFoundError');
  });

  it('lints with zero errors (Redocly, recommended rules)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('gives clients generated with openapi-typescript one typed operation per route', async () => {
    const types = astToString(await openapiTS(doc));
    const block = types.slice(types.indexOf('export interface operations'));
    for (const { operation } of operations()) expect(block).toContain(`    ${operation.operationId}: {`);
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await server.call('GET', '/api/nothing-here', { token: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});
