import { readFileSync } from 'node:fs';
import { createPGlite, PrismaPGliteWithExtensions } from '../../src/db/pglite-extensions.js';
import { isInputObjectType, isObjectType, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../rest-adapter/all-routes.js';
import { parse } from 'graphql';
import { diffMigrationsToSchema } from '../../src/db/migrations.js';
import { schema } from '../../src/schema/index.js';
import { printedSchema } from '../../scripts/print-schema.js';

const rootFields = () =>
  [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]
    .filter((type) => type !== null && type !== undefined)
    .flatMap((type) => Object.values(type!.getFields()).map((field) => ({ type: type!.name, field })));

const policyOf = (typeName: string, fieldName: string) => {
  const type = schema.getType(typeName);
  if (!isObjectType(type)) return undefined;
  const options = type.getFields()[fieldName]?.extensions?.pothosOptions as { authScopes?: unknown } | undefined;
  return options?.authScopes;
};

describe('GraphQL schema', () => {
  it('matches the committed schema.graphql (run npm run schema after changing it)', () => {
    expect(printedSchema()).toBe(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
  });

  it('declares an authorization policy on every root field', () => {
    const missing = rootFields().filter(({ type, field }) => !policyOf(type, field.name)).map(({ type, field }) => `${type}.${field.name}`);
    expect(missing).toEqual([]);
  });

  it('describes every public type, field and argument', () => {
    const undocumented: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (!type.description && !/^(Boolean|String|Int|Float|ID)$/.test(type.name)) undocumented.push(type.name);
      if (!isObjectType(type) && !isInputObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        if (!field.description) undocumented.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) {
          if (!arg.description) undocumented.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    expect(undocumented).toEqual([]);
  });
});

describe('REST routes', () => {
  it('each route runs GraphQL fields that carry a policy, and public routes say so', () => {
    const problems: string[] = [];
    for (const route of allRoutes) {
      const operation = parse(route.operation).definitions[0] as OperationDefinitionNode;
      const typeName = operation.operation === 'query' ? 'Query' : 'Mutation';
      for (const selection of operation.selectionSet.selections) {
        if (selection.kind !== 'Field') continue;
        const policy = policyOf(typeName, selection.name.value) as Record<string, unknown> | undefined;
        if (!policy) problems.push(`${route.method} ${route.path}: ${typeName}.${selection.name.value} has no policy`);
        const publicRoute = Array.isArray(route.doc.security) && route.doc.security.length === 0;
        if (Boolean(policy?.public) !== publicRoute) problems.push(`${route.method} ${route.path}: OpenAPI security does not match the policy`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('migrations', () => {
  it('prisma/migrations produce exactly prisma/schema.prisma (run npm run db:migration -- <name>)', async () => {
    const pglite = await createPGlite('memory://');
    try {
      expect(await diffMigrationsToSchema(new PrismaPGliteWithExtensions(pglite))).toBe('');
    } finally {
      await pglite.close();
    }
    // Two databases and Prisma's schema engine in WebAssembly: 10 s alone, several times that beside other files.
  }, 180_000);
});
