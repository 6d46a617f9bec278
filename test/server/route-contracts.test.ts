import { coerceInputValue, type GraphQLInputType, isInputType, Kind, type OperationDefinitionNode, parse, typeFromAST } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allRoutes } from '../../rest-adapter/all-routes.js';
import type { RestRequest, RouteSpec } from '../../rest-adapter/route.js';
import { checkContract } from '../../src/contracts/parse.js';
import { schema } from '../../src/schema/index.js';

// A route's contract must refuse, in our words, everything its GraphQL operation's variable types would
// refuse: the REST adapter has no second check that names fields (a gap answers 400 without details).
// This walks each contract's JSON Schema for likely and edge-case values, keeps what the contract accepts,
// maps it as the route does and asks GraphQL whether it takes the variables.

type JsonSchema = { type?: string | string[]; enum?: unknown[]; anyOf?: JsonSchema[]; items?: JsonSchema; properties?: Record<string, JsonSchema> };

const EDGE_TEXT = ['a', 'SKU-1', '2026-01-05', '2026-02-30', 'a', '2026-01-05T00:00:00Z', '1', '', 'ALL', '0190f0d4-9c3a-7b5e-8d1f-0123456789ab'];
const EDGE_NUMBERS = [1, 0, -1, 1.5, 2_147_483_648, -2_147_483_649, 1e15];

function samples(json: JsonSchema | undefined, depth = 0): unknown[] {
  if (!json || depth > 4) return [undefined];
  if (json.anyOf) return json.anyOf.flatMap((branch) => samples(branch, depth + 1));
  const types = Array.isArray(json.type) ? json.type : [json.type];
  const out: unknown[] = [null, undefined];
  if (json.enum) out.push(...json.enum, 'x');
  if (types.includes('string')) out.push(...EDGE_TEXT);
  if (types.includes('integer') || types.includes('number')) out.push(...EDGE_NUMBERS, '5');
  if (types.includes('boolean')) out.push(true, 'true');
  if (types.includes('array')) out.push([], ...samples(json.items, depth + 1).filter((v) => v !== undefined).slice(0, 30).map((v) => [v]));
  if (types.includes('object') || json.properties) {
    const properties = Object.entries(json.properties ?? {});
    const base: Record<string, unknown> = {};
    for (const [key, property] of properties) {
      const good = samples(property, depth + 1).find((v) => v !== null && v !== undefined);
      if (good !== undefined) base[key] = good;
    }
    out.push(base);
    for (const [key, property] of properties) for (const value of samples(property, depth + 1)) out.push({ ...base, [key]: value });
  }
  return out;
}

/** Query candidates: every parameter alone with each text a caller may type. */
function querySamples(contract: z.ZodObject): Record<string, string>[] {
  const texts = ['1', '0', '-1', '2147483648', '1.5', 'abc', '2026-01-05', '2026-01-05T00:00:00Z', 'true', 'ALL', 'a,b'];
  return Object.keys(contract.shape).flatMap((key) => texts.map((text) => ({ [key]: text })));
}

/** What GraphQL says of the variables a request maps to (empty: it takes them). */
function refusals(route: RouteSpec, request: RestRequest): string[] {
  const operation = parse(route.operation).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const variables = route.variables?.(request) ?? {};
  const found: string[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (!type || !isInputType(type)) continue;
    const value = variables[definition.variable.name.value];
    if (value === undefined && !String(type).endsWith('!')) continue;
    coerceInputValue(value === undefined ? null : value, type, (path, _value, error) => {
      found.push(`$${definition.variable.name.value}${path.length ? `.${path.join('.')}` : ''}: ${error.message}`);
    });
  }
  return found;
}

const params = { id: 'x', jobId: 'x', deliveryId: 'x' };

describe('route contracts', () => {
  const routes = allRoutes.filter((route) => route.input?.body || route.input?.query);

  it('cover a real share of the routes', () => {
    expect(routes.length).toBeGreaterThan(30);
  });

  it('refuse everything the operations would refuse, so every 400 names its field in our words', () => {
    const gaps: string[] = [];
    for (const route of routes) {
      const { body, query } = route.input!;
      const candidates: Pick<RestRequest, 'query' | 'body'>[] = [
        ...(body ? samples(z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }) as JsonSchema).map((b) => ({ query: {}, body: b })) : []),
        ...(query ? querySamples(query).map((q) => ({ query: q, body: undefined })) : []),
      ];
      for (const candidate of candidates) {
        const checkedQuery = query ? checkContract(query, candidate.query) : { data: candidate.query };
        if ('details' in checkedQuery) continue;
        if (body && 'details' in checkContract(body, candidate.body)) continue;
        const request: RestRequest = { params, query: checkedQuery.data as RestRequest['query'], body: candidate.body, headers: new Headers() };
        for (const refusal of refusals(route, request)) gaps.push(`${route.method} ${route.path} ${JSON.stringify(candidate)} -> ${refusal}`);
      }
    }
    expect(gaps.slice(0, 20)).toEqual([]);
  });

  it('would see a gap: a contract wider than its operation is caught', () => {
    const route = allRoutes.find((r) => r.method === 'POST' && r.path === '/api/inventory/adjust')!;
    const body = { inventoryItemId: 'x', delta: 2_147_483_648, reasonCodeId: 'x' };
    expect(refusals(route, { params, query: {}, body, headers: new Headers() }).join()).toMatch(/delta/);
  });
});
