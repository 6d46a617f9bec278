import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import { graphql, type GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/kernel/errors.js';
import { mutationRefusalsPlugin } from '../../src/schema/mutation-refusals-plugin.js';
import { REFUSAL_KINDS } from '../../src/schema/refusal-kinds.js';
import { maskError } from '../../src/server/graphql-errors.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { MUTATION_REFUSALS } from '../support/mutation-refusals.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let a: Tenant;
beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma);
});
afterAll(() => server?.close());

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
const named = (type: TypeRef): TypeRef => (type.ofType ? named(type.ofType) : type);

describe('mutation refusals in the schema', () => {
  it("every mutation's result lists exactly the refusal types of the table (introspected over HTTP)", async () => {
    const res = await server.graphql(
      `{ __schema { mutationType { fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
         error: __type(name: "MutationError") { possibleTypes { name } } }`,
      {},
      a.key,
    );
    expect(res.body.errors).toBeUndefined();
    const refusalTypes = new Set(res.body.data.error.possibleTypes.map((t: { name: string }) => t.name));
    const unions = await server.graphql(
      `{ __schema { types { name kind possibleTypes { name } } } }`,
      {},
      a.key,
    );
    const members = new Map<string, string[]>(
      unions.body.data.__schema.types.filter((t: { kind: string }) => t.kind === 'UNION').map((t: { name: string; possibleTypes: { name: string }[] }) => [t.name, t.possibleTypes.map((p) => p.name)]),
    );
    const inSchema = Object.fromEntries(
      res.body.data.__schema.mutationType.fields.map((field: { name: string; type: TypeRef }) => {
        const type = named(field.type);
        const refusals = type.kind === 'UNION' ? members.get(type.name!)!.filter((name) => refusalTypes.has(name)).sort() : [];
        return [field.name, refusals];
      }),
    );
    const table = Object.fromEntries(Object.entries(MUTATION_REFUSALS).map(([name, types]) => [name, [...types].sort()]));
    expect(inSchema).toEqual(table);
  });

  it('a mutation that refuses nothing typed returns its type plainly; one that does, a union of its object and its refusals only', async () => {
    const res = await server.graphql(
      `{ signOut: __type(name: "Mutation") { fields { name type { kind ofType { kind name } } } }
         createApiKey: __type(name: "MutationCreateApiKeyResult") { possibleTypes { name } } }`,
      {},
      a.key,
    );
    const signOut = res.body.data.signOut.fields.find((f: { name: string }) => f.name === 'signOut');
    expect(signOut.type).toEqual({ kind: 'NON_NULL', ofType: { kind: 'SCALAR', name: 'Boolean' } });
    expect(res.body.data.createApiKey.possibleTypes.map((t: { name: string }) => t.name).sort()).toEqual(['ApiKeyWithSecret', 'ValidationError']);
  });
});

/** A small schema built with the same plugins, for what the real schema must never do. */
function schemaWith(define: (builder: PluginBuilder) => void) {
  // Only these two plugins: the options other plugins require (prisma, scopeAuth) do not apply.
  const builder = new SchemaBuilder<{ DefaultFieldNullability: false }>({
    plugins: [ErrorsPlugin, mutationRefusalsPlugin],
    errors: { directResult: true },
    defaultFieldNullability: false,
  } as never);
  const MutationError = builder.interfaceRef<DomainError>('MutationError').implement({
    fields: (t) => ({ code: t.string({ resolve: (error) => error.code }) }),
  });
  for (const [name, kind] of Object.entries(REFUSAL_KINDS)) builder.objectType(kind, { name, interfaces: [MutationError] });
  builder.objectType(Object, { name: 'Done', fields: (t) => ({ ok: t.boolean({ resolve: () => true }) }) });
  builder.queryType({ fields: (t) => ({ ok: t.boolean({ resolve: () => true }) }) });
  define(builder as unknown as PluginBuilder);
  return builder.toSchema();
}
type PluginBuilder = {
  mutationType: (options: { fields: (t: any) => Record<string, unknown> }) => void;
};

describe('the refusals plugin', () => {
  it('refuses to build a schema with a mutation that declares no refusals', () => {
    expect(() =>
      schemaWith((builder) =>
        builder.mutationType({ fields: (t) => ({ forgot: t.field({ type: 'Done', resolve: () => ({}) }) }) }),
      ),
    ).toThrow(/Mutation\.forgot declares no `refusals`/);
  });

  it('a refusal a mutation did not declare is not lost: it is a top-level error with its extensions.code', async () => {
    const schema = schemaWith((builder) =>
      builder.mutationType({
        fields: (t) => ({
          declared: t.field({ type: 'Done', refusals: ['ValidationError'], resolve: () => { throw new DomainError('VALIDATION_ERROR', 'bad'); } }),
          undeclared: t.field({ type: 'Done', refusals: ['ValidationError'], resolve: () => { throw new DomainError('NOT_FOUND', 'Thing not found'); } }),
        }),
      }),
    );
    const declared = await graphql({ schema, source: 'mutation { declared { __typename ... on MutationError { code } } }' });
    expect(declared).toEqual({ data: { declared: { __typename: 'ValidationError', code: 'VALIDATION_ERROR' } } });
    const undeclared = await graphql({ schema, source: 'mutation { undeclared { __typename } }' });
    expect(undeclared.data).toBeNull();
    const error = maskError(undeclared.errors![0], 'Unexpected error.') as GraphQLError;
    expect(error.message).toBe('Thing not found');
    expect(error.extensions.code).toBe('NOT_FOUND');
    expect(error.path).toEqual(['undeclared']);
  });
});
