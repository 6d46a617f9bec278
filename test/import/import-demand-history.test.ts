import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct, graphqlData } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { importRows as importAndWait } from '../support/import.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Weekly demand history rows (the other kinds are in import-appliers.test.ts).

let server: TestServer;
let a: Tenant;
let b: Tenant;
let dc: { id: string };
let bDc: { id: string };
const P: Record<string, string> = {};

const importRows = (path: string, rows: unknown[], token = a.key) => importAndWait(server, token, path, rows);

const gql = (query: string, variables: Record<string, unknown> = {}, token = a.key) => graphqlData(server, token, query, variables);

const product = (token: string, sku: string) => createProduct(server, token, sku);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50' }));
  dc = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DC-EAST', name: 'East DC' });
  bDc = await createLocationFor(server.operator, { organizationId: b.org.id, code: 'B-DC', name: 'Their DC' });
  for (const sku of ['SKU-A', 'SKU-B']) P[sku] = await product(a.key, sku);
  P.theirs = await product(b.key, 'B-ONLY');
}, 60_000);
afterAll(() => server?.close());

describe('demand history import', () => {
  const DEMAND = `query ($productMasterId: ID, $locationId: ID, $channel: String, $from: Date, $to: Date) {
    demandHistory(first: 100, productMasterId: $productMasterId, locationId: $locationId, channel: $channel, from: $from, to: $to) {
      edges { node { product { sku } location { code } channel weekStart actualUnits forecastUnits } } } }`;
  const demand = async (vars: Record<string, unknown> = {}, token = a.key) => (await gql(DEMAND, vars, token)).demandHistory.edges.map((e: any) => e.node);

  it('refuses a channel with a NUL character (PostgreSQL cannot store it), naming the row and field', async () => {
    const res = await server.call('POST', '/api/import/demand-history', { token: a.key, body: [{ sku: 'SKU-A', locationCode: 'DC-EAST', date: '2025-06-04', channel: 'W\u0000EB' }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { '0.channel': [expect.stringContaining('NUL')] } });
  });

  it('rejects dates before 1970 (years 0-99 are not read as 1900-1999)', async () => {
    const job = await importRows('demand-history', [
      { sku: 'SKU-A', locationCode: 'DC-EAST', date: '0000-01-05' },
      { sku: 'SKU-A', locationCode: 'DC-EAST', date: '0099-06-01' },
    ]);
    expect(job.errors).toEqual([
      { row: 1, field: 'date', message: 'The year must be from 1970 to 2200' },
      { row: 2, field: 'date', message: 'The year must be from 1970 to 2200' },
    ]);
    expect(await demand({ productMasterId: P['SKU-A'], to: '1999-12-31' })).toEqual([]);
  });

  it('buckets dates to the Monday of their ISO week, with defaults channel ALL, actual 0, forecast = actual', async () => {
    const job = await importRows('demand-history', [
      { sku: 'SKU-A', locationCode: 'DC-EAST', date: '2021-01-03' }, // a Sunday, in the ISO week that began 2020-12-28
      { sku: 'SKU-A', locationCode: 'DC-EAST', date: '2026-11-22', actualDemand: 12 }, // Sunday -> 2026-11-16
      { sku: 'SKU-A', locationCode: 'DC-EAST', date: '2026-11-23', actualDemand: '8', forecastUnits: '20', channel: 'WEB' }, // Monday
      { sku: 'SKU-A', locationCode: `${a.org.id}-${dc.id}`, date: '2026-11-18T15:00:00Z', actualDemand: 5, channel: 'WEB' }, // Wednesday -> 2026-11-16
      { sku: 'SKU-B', locationCode: 'DC-EAST', date: '2026-11-17', actualDemand: 1 },
      { sku: 'SKU-B', locationCode: 'DC-EAST', date: '2026-11-20', actualDemand: 2 }, // same week and key: the last row wins
      { sku: 'B-ONLY', locationCode: 'B-DC', date: '2026-11-20' },
      { sku: 'SKU-A', locationCode: 'DC-EAST', date: '2026-02-30', actualDemand: -1 },
      { sku: 'SKU-A', locationCode: `${b.org.id}-${bDc.id}`, date: '2026-11-20' }, // their normalized code
      { sku: 'SKU-A', locationCode: `${a.org.id}-${bDc.id}`, date: '2026-11-20' }, // our prefix, their location
    ]);
    expect(job).toMatchObject({ processedRows: 10, rejectedRows: 4 });
    expect(job.errors).toEqual([
      { row: 7, field: 'sku', message: 'Unknown SKU B-ONLY' },
      { row: 7, field: 'locationCode', message: 'Unknown location B-DC' },
      { row: 8, field: 'date', message: 'Not a valid calendar date' },
      { row: 8, field: 'actualDemand', message: 'Must be 0 or more' },
      { row: 9, field: 'locationCode', message: `Unknown location ${b.org.id}-${bDc.id}` },
      { row: 10, field: 'locationCode', message: `Unknown location ${a.org.id}-${bDc.id}` },
    ]);
    expect(await demand({ productMasterId: P['SKU-A'] })).toEqual([
      { product: { sku: 'SKU-A' }, location: { code: 'DC-EAST' }, channel: 'ALL', weekStart: '2020-12-28', actualUnits: 0, forecastUnits: 0 },
      { product: { sku: 'SKU-A' }, location: { code: 'DC-EAST' }, channel: 'ALL', weekStart: '2026-11-16', actualUnits: 12, forecastUnits: 12 },
      { product: { sku: 'SKU-A' }, location: { code: 'DC-EAST' }, channel: 'WEB', weekStart: '2026-11-16', actualUnits: 5, forecastUnits: 5 },
      { product: { sku: 'SKU-A' }, location: { code: 'DC-EAST' }, channel: 'WEB', weekStart: '2026-11-23', actualUnits: 8, forecastUnits: 20 },
    ]);
    expect(await demand({ productMasterId: P['SKU-B'] })).toMatchObject([{ weekStart: '2026-11-16', actualUnits: 2, forecastUnits: 2 }]);
  });

  it('updates a week on re-import and filters by channel and date range', async () => {
    await importRows('demand-history', [{ sku: 'SKU-A', locationCode: 'DC-EAST', date: '2026-11-20', actualDemand: 30, forecastUnits: 25 }]);
    expect(await server.app.prisma.demandHistory.count({ where: { organizationId: a.org.id, productMasterId: P['SKU-A'] } })).toBe(4);
    expect(await demand({ productMasterId: P['SKU-A'], locationId: dc.id, channel: 'ALL', from: '2026-11-19', to: '2026-11-22' })).toEqual([
      { product: { sku: 'SKU-A' }, location: { code: 'DC-EAST' }, channel: 'ALL', weekStart: '2026-11-16', actualUnits: 30, forecastUnits: 25 },
    ]);
    expect((await demand({ channel: 'WEB', from: '2026-11-23' })).map((r: any) => r.weekStart)).toEqual(['2026-11-23']);
    expect((await demand({ to: '2021-01-03' })).map((r: any) => r.weekStart)).toEqual(['2020-12-28']);
  });

  it('needs planning.read and keeps organizations apart', async () => {
    const denied = await server.graphql(DEMAND, {}, await a.keyWith(['inventory:read']));
    expect(denied.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect((await demand({}, await a.keyWith(['planning:*']))).length).toBe(5);
    expect(await demand({}, b.key)).toEqual([]);
    const foreign = await server.graphql(DEMAND, { productMasterId: P.theirs }, a.key);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
