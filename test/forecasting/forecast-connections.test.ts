import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processNextBatch } from '../../src/services/forecasting/runs/run-worker.js';
import { createProduct, graphqlData } from '../support/api.js';
import { insertWeeklyDemand, weekAfter } from '../support/demand-history.js';
import { FORECASTING } from '../support/forecasting.js';
import type { TestServer } from '../support/server.js';
import type { Tenant } from '../support/fixtures.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Every list of the forecasting area is a Relay connection: it pages forward (first/after) and backward
// (last/before, and last alone) over the whole list in its order, counts it, and refuses a page over its
// maximum or a cursor it did not issue with VALIDATION_ERROR naming the argument. Three of each item.

const FIRST_WEEK = '2024-01-01'; // a Monday
const WEEKS = 30;
const FIRST_FORECAST_WEEK = weekAfter(FIRST_WEEK, WEEKS);

let server: TestServer;
let a: Tenant;
let b: Tenant;
let draft: string;
let run: string;
let theirScenario: string;
let theirRun: string;
let productsCursor: string;

const rest = async (tenant: Tenant, method: string, path: string, body?: unknown) => {
  const res = await server.call(method, path, { token: tenant.key, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
};

async function generated(tenant: Tenant, scenarioId: string) {
  const made = await rest(tenant, 'POST', `/api/forecast/scenarios/${scenarioId}/generate`, { horizon: 1, levels: [80] });
  while (await processNextBatch(server.app, { leaseMs: 60_000 }));
  return made.id as string;
}

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  const db = server.app.prisma;
  for (const sku of ['FC-1', 'FC-2', 'FC-3']) {
    const product = await createProduct(server, a.key, sku);
    await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: product, locationId: a.warehouse.id, firstWeek: FIRST_WEEK, values: Array(WEEKS).fill(10) });
    await rest(a, 'PUT', '/api/forecast/overrides', { productMasterId: product, locationId: a.warehouse.id, periodStart: FIRST_FORECAST_WEEK, quantity: 5 });
  }
  const soon = new Date(Date.now() + 86_400_000);
  for (const [i, name] of ['First', 'Second', 'Third'].entries()) {
    const startsAt = new Date(soon.getTime() + i * 86_400_000).toISOString();
    await rest(a, 'POST', '/api/forecast/events', { name, type: 'PROMOTION', startsAt, endsAt: startsAt });
  }
  draft = (await rest(a, 'POST', '/api/forecast/scenarios', { name: 'Draft', type: 'CUSTOM' })).id;
  for (const name of ['Other 1', 'Other 2']) await rest(a, 'POST', '/api/forecast/scenarios', { name, type: 'CUSTOM' });
  for (let i = 0; i < 2; i++) await generated(a, draft);
  run = await generated(a, draft);

  const theirProduct = await createProduct(server, b.key, 'FC-B');
  await insertWeeklyDemand(db, { organizationId: b.org.id, productMasterId: theirProduct, locationId: b.warehouse.id, firstWeek: FIRST_WEEK, values: Array(WEEKS).fill(10) });
  theirScenario = (await rest(b, 'POST', '/api/forecast/scenarios', { name: 'Theirs', type: 'CUSTOM' })).id;
  theirRun = await generated(b, theirScenario);
  productsCursor = (await graphqlData(server, a.key, '{ products(first: 1) { edges { cursor } } }')).products.edges[0].cursor;
});
afterAll(() => server?.close());

interface Connection {
  /** The field and its own arguments, e.g. `forecastRuns(scenarioId: "…"`, without the closing parenthesis. */
  field: string;
  own: string;
  node: string;
  count: number;
  max: number;
}

const CONNECTIONS = (): Record<string, Connection> => ({
  demandForecast: { field: 'demandForecast', own: 'horizon: 1', node: 'productMasterId channel', count: 3, max: 100 },
  longTermForecast: { field: 'longTermForecast', own: 'months: 12', node: 'productMasterId channel', count: 3, max: 100 },
  channelProjection: { field: 'channelProjection', own: 'horizon: 1', node: 'productMasterId locationId', count: 3, max: 100 },
  forecastAccuracy: { field: 'forecastAccuracy', own: 'groupBy: PRODUCT', node: 'productMasterId points', count: 3, max: 500 },
  forecastRuns: { field: 'forecastRuns', own: `scenarioId: "${draft}"`, node: 'id', count: 3, max: 100 },
  forecastRunSeries: { field: 'forecastRunSeries', own: `id: "${run}"`, node: 'productMasterId channel', count: 3, max: 500 },
  forecastChanges: { field: 'forecastChanges', own: 'kind: OVERRIDE', node: 'id', count: 3, max: 500 },
  forecastOverrides: { field: 'forecastOverrides', own: 'baseOnly: true', node: 'id', count: 3, max: 500 },
  externalEvents: { field: 'externalEvents', own: 'type: PROMOTION', node: 'id name', count: 3, max: 100 },
  forecastScenarios: { field: 'forecastScenarios', own: 'type: CUSTOM', node: 'id', count: 3, max: 100 },
});

async function page(c: Connection, paging: string) {
  const query = `{ list: ${c.field}(${c.own}${paging ? `, ${paging}` : ''}) { totalCount edges { cursor node { ${c.node} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
  return (await graphqlData(server, a.key, query)).list as { totalCount: number; edges: { cursor: string; node: unknown }[]; pageInfo: any };
}

const nodes = (p: { edges: { node: unknown }[] }) => p.edges.map((e) => JSON.stringify(e.node));

describe('forecasting connections', () => {
  for (const name of Object.keys(CONNECTIONS())) {
    it(`${name} pages forward and backward over the whole list, counts it, and refuses what it did not issue`, async () => {
      const c = CONNECTIONS()[name]!;
      const all = await page(c, `first: ${c.max}`);
      expect(all.totalCount).toBe(c.count);
      const order = nodes(all);
      expect(order).toHaveLength(c.count);
      expect(new Set(order).size).toBe(c.count);

      // Forward, two at a time.
      const forward: string[] = [];
      let after: string | null = null;
      for (let i = 0; i < c.count; i++) {
        const p = await page(c, `first: 2${after ? `, after: "${after}"` : ''}`);
        forward.push(...nodes(p));
        if (!p.pageInfo.hasNextPage) break;
        after = p.pageInfo.endCursor;
      }
      expect(forward).toEqual(order);

      // Backward from the end, two at a time; `last` alone is the end of the list.
      const end = await page(c, 'last: 2');
      expect(nodes(end)).toEqual(order.slice(-2));
      expect(end.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const backward = nodes(end);
      let before = end.pageInfo.startCursor;
      while (before) {
        const p = await page(c, `last: 2, before: "${before}"`);
        backward.unshift(...nodes(p));
        before = p.pageInfo.hasPreviousPage ? p.pageInfo.startCursor : null;
      }
      expect(backward).toEqual(order);
      expect(nodes(await page(c, 'last: 1'))).toEqual(order.slice(-1));

      // Over the maximum, and a cursor of another list (products pages by id).
      for (const [paging, argument, message] of [
        [`first: ${c.max + 1}`, 'first', `first must be at most ${c.max}: page on with the cursors of pageInfo`],
        [`first: 1, after: "${productsCursor}"`, 'after', expect.stringContaining('Not a cursor of this list')],
      ] as const) {
        const res = await server.graphql(`{ ${c.field}(${c.own}, ${paging}) { totalCount } }`, {}, a.key);
        expect(res.status, paging).toBe(400);
        expect(res.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { [argument]: [message] } });
      }
    });
  }

  it('answers NOT_FOUND for a scenario or run of another organization', async () => {
    for (const query of [
      `{ forecastRuns(scenarioId: "${theirScenario}") { totalCount } }`,
      `{ forecastRunSeries(id: "${theirRun}") { totalCount } }`,
      `{ demandForecast(scenarioId: "${theirScenario}") { totalCount } }`,
      `{ longTermForecast(scenarioId: "${theirScenario}") { totalCount } }`,
      `{ channelProjection(scenarioId: "${theirScenario}") { totalCount } }`,
      `{ forecastAccuracy(source: STORED, runId: "${theirRun}") { totalCount } }`,
      `{ forecastChanges(scenarioId: "${theirScenario}") { totalCount } }`,
      `{ forecastOverrides(scenarioId: "${theirScenario}") { totalCount } }`,
    ]) {
      const res = await server.graphql(query, {}, a.key);
      expect(res.body.errors?.[0]?.extensions?.code, query).toBe('NOT_FOUND');
    }
  });
});
