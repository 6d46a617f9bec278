import { operatorContext } from '../../../src/context.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelFor, createLocationFor } from '../../../src/services/admin/admin.js';
import { graphqlData, graphqlError, graphqlRefusal } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { countStatements } from '../../support/statement-count.js';
import { REFUSAL } from '../../support/graphql.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
const ch = {} as Record<'store' | 'web' | 'wholesale' | 'bWeb', string>;
const loc = {} as Record<'wh1' | 'bnd' | 'bulk' | 'other', string>;
const prod = {} as Record<string, string>;
const pol = {} as Record<'webWh1' | 'storeWh1', string>;
const today = new Date().toISOString().slice(0, 10);

const SET = `mutation ($input: SetAllocationPolicyInput!) {
  setAllocationPolicy(input: $input) { ... on AllocationPolicy { id channelId locationId mode sharePct fixedQuantity lowAtpThreshold channel { name } location { code } } ${REFUSAL} } }`;
const DELETE = `mutation ($id: ID!) { deleteAllocationPolicy(id: $id) { ... on AllocationPolicy { id mode } ${REFUSAL} } }`;
const POLICIES = 'query ($locationId: ID, $channelId: ID) { allocationPolicies(locationId: $locationId, channelId: $channelId) { edges { node { id channelId locationId } } } }';
const nodesOf = <T>(connection: { edges: { node: T }[] }) => connection.edges.map((e) => e.node);
const ATP_GQL = `query ($locationId: ID, $limit: Int) { channelLocationAtpPage(locationId: $locationId, limit: $limit) {
  products { productMasterId channels { channelId atp severity } } location { id } pagination { total } } }`;
const DRILL_GQL = 'query ($l: ID, $p: ID) { channelLocationDrilldown(locationId: $l, productMasterId: $p) { product { productMasterId } stockLines { id: stockLineId } } }';
const SUMMARY_GQL = 'query ($l: ID) { channelSummary(locationId: $l) { channelId totalAtp } }';

const gql = (token: string, query: string, variables: Record<string, unknown> = {}) => graphqlData(server, token, query, variables);

const gqlError = (token: string | undefined, query: string, variables: Record<string, unknown> = {}) => graphqlError(server, token, query, variables);

const get = (path: string, token = a.key) => server.call('GET', path, { token });
const atpPage = (query: string, token = a.key) => get(`/api/inventory/channel-location?${query}`, token);
const setPolicy = (input: Record<string, unknown>, token = a.key) => gql(token, SET, { input }).then((d) => d.setAllocationPolicy);

async function product(tenant: Tenant, sku: string, name: string, categoryId?: string) {
  const res = await server.call('POST', '/api/products', { token: tenant.key, body: { sku, name, categoryId } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const stock = (tenant: Tenant, productMasterId: string, locationId: string, deltas: Record<string, number>, lot: object = {}) =>
  addStock(server.app, tenant.org.id, { productMasterId, locationId, ...lot }, deltas);

/** The channel entries of one product, keyed by channel id, without the repeated location totals. */
const entriesOf = (p: any) => Object.fromEntries(p.channels.map((c: any) => [c.channelId, { atp: c.atp, severity: c.severity, threshold: c.threshold }]));

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  const db = server.app.prisma;
  ch.store = (await createChannelFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, name: 'Retail store', type: 'RETAIL' })).id;
  ch.web = (await createChannelFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, name: 'Web shop', type: 'ONLINE' })).id;
  ch.wholesale = (await createChannelFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, name: 'Wholesale', type: 'WHOLESALE' })).id;
  ch.bWeb = (await createChannelFor(operatorContext(db, 'test-setup'), { organizationId: b.org.id, name: 'B web', type: 'ONLINE' })).id;
  loc.wh1 = a.warehouse.id;
  loc.bnd = (await createLocationFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, code: 'BND', name: 'Boundaries' })).id;
  loc.bulk = (await createLocationFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, code: 'BULK', name: 'Bulk' })).id;
  loc.other = (await createLocationFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, code: 'OTH', name: 'Other' })).id;
  const category = (await gql(a.key, 'mutation { createCategory(input: {name: "Widgets"}) { ... on Category { id } } }')).createCategory.id;

  // WH1: Web SHARE 0.29 (threshold 20), Store FIXED 25 (threshold 10), Wholesale no policy.
  pol.webWh1 = (await setPolicy({ channelId: ch.web, locationId: loc.wh1, mode: 'SHARE', sharePct: 0.29, lowAtpThreshold: 20 })).id;
  pol.storeWh1 = (await setPolicy({ channelId: ch.store, locationId: loc.wh1, mode: 'FIXED', fixedQuantity: 25, lowAtpThreshold: 10 })).id;
  // P1: 100 on hand − 10 reserved − 5 on hold = 85; expired lot (30) and recalled lot (20) left out; good lot 15 − 3 picked = 12.
  prod.p1 = await product(a, 'ATP-001', 'Alpha widget', category);
  await stock(a, prod.p1, loc.wh1, { ON_HAND: 100, RESERVED: 10, ON_HOLD: 5 });
  await stock(a, prod.p1, loc.wh1, { ON_HAND: 30 }, { lotCode: 'L-EXP', expiryDate: '2020-01-01' });
  await stock(a, prod.p1, loc.wh1, { ON_HAND: 20 }, { lotCode: 'L-REC', recalled: true, binCode: 'B-1' });
  await stock(a, prod.p1, loc.wh1, { ON_HAND: 15, PICKED: 3 }, { lotCode: 'L-OK', expiryDate: '2099-12-31', binCode: 'B-2' });
  prod.p2 = await product(a, 'ATP-002', 'Beta widget');
  await stock(a, prod.p2, loc.wh1, { ON_HAND: 100 });
  prod.p3 = await product(a, 'ATP-003', 'Elsewhere widget');
  await stock(a, prod.p3, loc.other, { ON_HAND: 7 });
  // A lot expiring today is still usable.
  prod.p4 = await product(a, 'ATP-004', 'Gamma gadget');
  await stock(a, prod.p4, loc.wh1, { ON_HAND: 8 }, { lotCode: 'L-TODAY', expiryDate: today });
  prod.p5 = await product(a, 'ATP-005', 'Empty line');
  await stock(a, prod.p5, loc.wh1, { ON_HAND: 3 });
  await stock(a, prod.p5, loc.wh1, { ON_HAND: -3 });

  // BND: Web SHARE 0.5 (threshold 10), Store FIXED 10 (threshold 10); products with 0, 1, 19 and 20 available.
  await setPolicy({ channelId: ch.web, locationId: loc.bnd, mode: 'SHARE', sharePct: 0.5, lowAtpThreshold: 10 });
  await setPolicy({ channelId: ch.store, locationId: loc.bnd, mode: 'FIXED', fixedQuantity: 10, lowAtpThreshold: 10 });
  for (const n of [0, 1, 19, 20]) {
    prod[`b${n}`] = await product(a, `BND-${String(n).padStart(2, '0')}`, `Boundary ${n}`);
    await stock(a, prod[`b${n}`]!, loc.bnd, { ON_HAND: n + 5, RESERVED: 5 });
  }

  // BULK: 50 products for paging and query counts.
  await server.app.prisma.productMaster.createMany({
    data: Array.from({ length: 50 }, (_, i) => ({ organizationId: a.org.id, sku: `BULK-${String(i).padStart(3, '0')}`, name: `Bulk item ${i}` })),
  });
  for (const p of await server.app.prisma.productMaster.findMany({ where: { organizationId: a.org.id, sku: { startsWith: 'BULK-' } } })) {
    await stock(a, p.id, loc.bulk, { ON_HAND: 10 });
  }

  prod.bp = await product(b, 'B-001', 'B product');
  await stock(b, prod.bp, b.warehouse.id, { ON_HAND: 50 });
});
afterAll(() => server?.close());

describe('GET /api/inventory/channel-location', () => {
  it('computes SHARE and FIXED ATP, leaves out expired and recalled lots, and serves both variants', async () => {
    const res = await atpPage(`locationId=${loc.wh1}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['channels', 'data', 'location', 'pagination', 'products']);
    expect(res.body.data).toEqual(res.body.products);
    // The list under both names is written once and repeated (rest-adapter/errors.ts, bodyBytes): the text is still
    // exactly what JSON.stringify makes of the answer, keys in the same order.
    const raw = await (await fetch(`${server.url}/api/inventory/channel-location?locationId=${loc.wh1}`, { headers: { authorization: `Bearer ${a.key}` } })).text();
    expect(raw).toBe(JSON.stringify(JSON.parse(raw)));
    expect(Object.keys(JSON.parse(raw))).toEqual(Object.keys(res.body));
    expect(res.body.location).toMatchObject({ id: loc.wh1, name: 'Main warehouse' });
    expect(res.body.pagination).toEqual({ page: 1, pageSize: 50, total: 4, totalPages: 1 });
    // Only products with a stock line at the location (not ATP-003), in SKU order; an empty line still counts.
    expect(res.body.products.map((p: any) => p.globalSku)).toEqual(['ATP-001', 'ATP-002', 'ATP-004', 'ATP-005']);
    expect(res.body.channels).toEqual([
      { channelId: ch.store, channelName: 'Retail store', channelType: 'RETAIL', policyId: pol.storeWh1, mode: 'FIXED', sharePct: null, fixedQuantity: 25, lowAtpThreshold: 10 },
      { channelId: ch.web, channelName: 'Web shop', channelType: 'ONLINE', policyId: pol.webWh1, mode: 'SHARE', sharePct: 0.29, fixedQuantity: null, lowAtpThreshold: 20 },
      { channelId: ch.wholesale, channelName: 'Wholesale', channelType: 'WHOLESALE', policyId: null, mode: null, sharePct: null, fixedQuantity: null, lowAtpThreshold: 0 },
    ]);

    const [p1, p2, p4, p5] = res.body.products;
    // available = 85 + 12 = 97; on hand 100 + 30 + 20 + 15 = 165.
    expect(p1).toMatchObject({
      productMasterId: prod.p1, productName: 'Alpha widget', globalSku: 'ATP-001', categoryName: 'Widgets',
      totalOnHand: 165, totalReserved: 10, totalAvailable: 97, minAtp: 25, maxAtp: 97, hasCritical: false,
    });
    expect(p1.channels[0]).toEqual({
      channelId: ch.store, channelName: 'Retail store', atp: 25, onHand: 165, reserved: 10, available: 97, severity: 'OK', threshold: 10, policyId: pol.storeWh1,
    });
    expect(entriesOf(p1)).toEqual({
      [ch.store]: { atp: 25, severity: 'OK', threshold: 10 }, // min(25, 97)
      [ch.web]: { atp: 28, severity: 'OK', threshold: 20 }, // floor(97 × 0.29 = 28.13)
      [ch.wholesale]: { atp: 97, severity: 'OK', threshold: null }, // no policy: all of available
    });
    // 100 × 0.29 is 28.999999999999996 in binary floating point; the rule still gives 29.
    expect(entriesOf(p2)).toEqual({
      [ch.store]: { atp: 25, severity: 'OK', threshold: 10 },
      [ch.web]: { atp: 29, severity: 'OK', threshold: 20 },
      [ch.wholesale]: { atp: 100, severity: 'OK', threshold: null },
    });
    expect(p2.categoryName).toBeNull();
    expect(entriesOf(p4)).toEqual({
      [ch.store]: { atp: 8, severity: 'LOW', threshold: 10 }, // min(25, 8) < 10
      [ch.web]: { atp: 2, severity: 'LOW', threshold: 20 }, // floor(2.32)
      [ch.wholesale]: { atp: 8, severity: 'OK', threshold: null },
    });
    expect(p5).toMatchObject({ totalOnHand: 0, minAtp: 0, maxAtp: 0, hasCritical: true });
    expect(p5.channels.every((c: any) => c.severity === 'CRITICAL')).toBe(true);
  });

  it('gives CRITICAL at atp 0, LOW below the threshold and OK at the threshold', async () => {
    const res = await atpPage(`locationId=${loc.bnd}`);
    const by = Object.fromEntries(res.body.products.map((p: any) => [p.productMasterId, entriesOf(p)]));
    const row = (store: [number, string], web: [number, string], wholesale: [number, string]) => ({
      [ch.store]: { atp: store[0], severity: store[1], threshold: 10 },
      [ch.web]: { atp: web[0], severity: web[1], threshold: 10 },
      [ch.wholesale]: { atp: wholesale[0], severity: wholesale[1], threshold: null },
    });
    expect(by[prod.b0!]).toEqual(row([0, 'CRITICAL'], [0, 'CRITICAL'], [0, 'CRITICAL']));
    expect(by[prod.b1!]).toEqual(row([1, 'LOW'], [0, 'CRITICAL'], [1, 'OK']));
    expect(by[prod.b19!]).toEqual(row([10, 'OK'], [9, 'LOW'], [19, 'OK']));
    expect(by[prod.b20!]).toEqual(row([10, 'OK'], [10, 'OK'], [20, 'OK']));
    expect(res.body.products.map((p: any) => p.hasCritical)).toEqual([true, true, false, false]);
  });

  it('pages, searches and filters by sku and channels', async () => {
    const page3 = await atpPage(`locationId=${loc.bulk}&limit=20&page=3`);
    expect(page3.body.pagination).toEqual({ page: 3, pageSize: 20, total: 50, totalPages: 3 });
    expect(page3.body.products.map((p: any) => p.globalSku)).toEqual(Array.from({ length: 10 }, (_, i) => `BULK-0${40 + i}`));
    expect((await atpPage(`locationId=${loc.bulk}`)).body.products).toHaveLength(50);
    const past = await atpPage(`locationId=${loc.bulk}&limit=20&page=4`);
    expect(past.body).toMatchObject({ products: [], data: [], pagination: { page: 4, pageSize: 20, total: 50, totalPages: 3 } });

    const skus = async (query: string) => (await atpPage(`locationId=${loc.wh1}&${query}`)).body.products.map((p: any) => p.globalSku);
    expect(await skus('search=ALPHA')).toEqual(['ATP-001']);
    expect(await skus('search=widget')).toEqual(['ATP-001', 'ATP-002']);
    expect(await skus('search=atp-00')).toEqual(['ATP-001', 'ATP-002', 'ATP-004', 'ATP-005']);
    expect(await skus('search=%25')).toEqual([]);
    expect(await skus('sku=atp-002')).toEqual(['ATP-002']);
    expect((await atpPage(`locationId=${loc.wh1}&search=widget`)).body.pagination.total).toBe(2);

    const two = await atpPage(`locationId=${loc.wh1}&channels=${ch.web},${ch.wholesale}`);
    expect(two.body.channels.map((c: any) => c.channelId)).toEqual([ch.web, ch.wholesale]);
    expect(two.body.products[0].channels.map((c: any) => c.channelId)).toEqual([ch.web, ch.wholesale]);
    expect(two.body.products[0]).toMatchObject({ minAtp: 28, maxAtp: 97 });
    const one = await atpPage(`locationId=${loc.wh1}&channelId=${ch.store}`);
    expect(one.body.channels.map((c: any) => c.channelId)).toEqual([ch.store]);
    expect(one.body.products[0].channels.map((c: any) => c.channelId)).toEqual([ch.store]);
  });

  it('answers 400 without locationId or with a bad limit, 404 for unknown ids, 401 and 403', async () => {
    const missing = await atpPage('search=x');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('locationId is required');
    expect((await gqlError(a.key, ATP_GQL)).code).toBe('VALIDATION_ERROR');
    expect((await atpPage(`locationId=${loc.wh1}&limit=201`)).body).toMatchObject({ code: 'VALIDATION_ERROR', details: { limit: [expect.any(String)] } });
    expect((await atpPage(`locationId=${loc.wh1}&page=0`)).status).toBe(400);
    expect((await atpPage('locationId=no-such-location')).status).toBe(404);
    expect((await atpPage(`locationId=${loc.wh1}&channels=no-such-channel`)).status).toBe(404);
    expect((await get(`/api/inventory/channel-location?locationId=${loc.wh1}`, '')).status).toBe(401);
    expect((await atpPage(`locationId=${loc.wh1}`, await a.keyWith(['forecast:read']))).status).toBe(403);
    expect((await atpPage(`locationId=${loc.wh1}`, await a.keyWith(['inventory:read']))).status).toBe(200);
  });

  it('reads a page in three statements at once, for 5 products as for 50 (REST and GraphQL)', async () => {
    // The location with its counter, the channels with their policies there, the products with their stock per lot.
    const count = async (run: () => Promise<unknown>) => (await countStatements(server, run)).statements;
    const rest = (limit: number) => count(async () => expect((await atpPage(`locationId=${loc.bulk}&limit=${limit}`)).body.products).toHaveLength(limit));
    await rest(1);
    expect({ five: await rest(5), fifty: await rest(50) }).toEqual({ five: 3, fifty: 3 });
    const graphql = (limit: number) => count(async () => expect((await gql(a.key, ATP_GQL, { locationId: loc.bulk, limit })).channelLocationAtpPage.products).toHaveLength(limit));
    expect({ five: await graphql(5), fifty: await graphql(50) }).toEqual({ five: 3, fifty: 3 });
    // Filtered, the count rides on the page: still three (a term under four letters or digits reads no statistics).
    const filtered = await countStatements(server, () => atpPage(`locationId=${loc.bulk}&search=BUL&limit=5`));
    expect(filtered.result.body.pagination.total).toBe(50);
    expect(filtered.statements).toBe(3);
  });
});

describe('GET /api/inventory/channel-location/drilldown', () => {
  it('shows the channel entries and every stock line with its exclusion', async () => {
    const res = await get(`/api/inventory/channel-location/drilldown?locationId=${loc.wh1}&productMasterId=${prod.p1}`);
    expect(res.status).toBe(200);
    const list = (await atpPage(`locationId=${loc.wh1}&sku=ATP-001`)).body.products[0];
    expect(res.body.product).toEqual(list);
    expect(res.body.channels).toEqual(list.channels);
    expect(res.body.location).toMatchObject({ id: loc.wh1, name: 'Main warehouse' });
    expect(res.body.channelList.map((c: any) => c.channelId)).toEqual([ch.store, ch.web, ch.wholesale]);
    const lines = Object.fromEntries(res.body.stockLines.map((l: any) => [l.lotCode ?? 'none', l]));
    expect(Object.keys(lines).sort()).toEqual(['L-EXP', 'L-OK', 'L-REC', 'none']);
    expect(lines.none).toMatchObject({ lotId: null, binCode: null, qtyOnHand: 100, qtyReserved: 10, qtyOnHold: 5, qtyAvailable: 85, excluded: false, excludedReason: null });
    expect(lines['L-EXP']).toMatchObject({ expiryDate: '2020-01-01', qtyOnHand: 30, qtyAvailable: 0, excluded: true, excludedReason: 'EXPIRED' });
    expect(lines['L-REC']).toMatchObject({ binCode: 'B-1', qtyOnHand: 20, qtyAvailable: 0, excluded: true, excludedReason: 'RECALLED' });
    expect(lines['L-OK']).toMatchObject({ binCode: 'B-2', expiryDate: '2099-12-31', qtyPicked: 3, qtyAvailable: 12, excluded: false });

    const one = await get(`/api/inventory/channel-location/drilldown?locationId=${loc.wh1}&productMasterId=${prod.p1}&channelId=${ch.web}`);
    expect(one.body.channels).toEqual([expect.objectContaining({ channelId: ch.web, atp: 28 })]);
  });

  it('answers 400 for a missing locationId or productMasterId and 404 for unknown ids', async () => {
    const path = '/api/inventory/channel-location/drilldown';
    const noLocation = await get(`${path}?productMasterId=${prod.p1}`);
    expect(noLocation).toMatchObject({ status: 400, body: { error: 'locationId is required' } });
    expect((await get(`${path}?locationId=${loc.wh1}`)).body).toMatchObject({ code: 'VALIDATION_ERROR', details: { productMasterId: ['Required'] } });
    expect((await get(`${path}?locationId=${loc.wh1}&productMasterId=nope`)).status).toBe(404);
    expect((await get(`${path}?locationId=nope&productMasterId=${prod.p1}`)).status).toBe(404);
    expect((await get(`${path}?locationId=${loc.wh1}&productMasterId=${prod.p1}`, '')).status).toBe(401);
  });
});

describe('GET /api/inventory/channel/summary', () => {
  it('sums ATP and counts severities per channel at one location', async () => {
    const res = await get(`/api/inventory/channel/summary?locationId=${loc.bnd}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(res.body.channels);
    expect(res.body.channels).toEqual([
      { channelId: ch.store, channelName: 'Retail store', channelType: 'RETAIL', locations: 1, policyCount: 1, totalAtp: 21, criticalCount: 1, lowCount: 1, okCount: 2 },
      { channelId: ch.web, channelName: 'Web shop', channelType: 'ONLINE', locations: 1, policyCount: 1, totalAtp: 19, criticalCount: 2, lowCount: 1, okCount: 1 },
      { channelId: ch.wholesale, channelName: 'Wholesale', channelType: 'WHOLESALE', locations: 1, policyCount: 0, totalAtp: 40, criticalCount: 1, lowCount: 0, okCount: 3 },
    ]);
  });

  it('covers every location with stock without a filter', async () => {
    const res = await get('/api/inventory/channel/summary');
    // Pairs: WH1 4, BND 4, BULK 50, OTHER 1. Wholesale is unrestricted: 97 + 100 + 8 + 0 + 40 + 500 + 7.
    const wholesale = res.body.channels.find((c: any) => c.channelId === ch.wholesale);
    expect(wholesale).toMatchObject({ locations: 4, policyCount: 0, totalAtp: 752, criticalCount: 2, lowCount: 0, okCount: 57 });
    const web = res.body.channels.find((c: any) => c.channelId === ch.web);
    // Web: WH1 28 + 29 + 2 + 0, BND 19, BULK and OTHER unrestricted 500 + 7.
    expect(web).toMatchObject({ policyCount: 2, totalAtp: 585, criticalCount: 3, lowCount: 2, okCount: 54 });
    expect((await get('/api/inventory/channel/summary?locationId=nope')).status).toBe(404);
    expect((await get('/api/inventory/channel/summary', '')).status).toBe(401);
  });
});

describe('allocation policies (GraphQL)', () => {
  it('upserts one policy per channel and location, lists and deletes it', async () => {
    const first = await setPolicy({ channelId: ch.wholesale, locationId: loc.other, mode: 'SHARE', sharePct: 0.5, lowAtpThreshold: 3 });
    expect(first).toMatchObject({ mode: 'SHARE', sharePct: 0.5, fixedQuantity: null, lowAtpThreshold: 3, channel: { name: 'Wholesale' }, location: { code: 'OTH' } });
    // Switching mode clears the other value; an absent threshold keeps the current one.
    const second = await setPolicy({ channelId: ch.wholesale, locationId: loc.other, mode: 'FIXED', fixedQuantity: 2 });
    expect(second).toMatchObject({ id: first.id, mode: 'FIXED', sharePct: null, fixedQuantity: 2, lowAtpThreshold: 3 });
    expect(nodesOf((await gql(a.key, POLICIES, { locationId: loc.other })).allocationPolicies)).toEqual([{ id: first.id, channelId: ch.wholesale, locationId: loc.other }]);
    expect(nodesOf((await gql(a.key, POLICIES, { channelId: ch.web })).allocationPolicies)).toHaveLength(2);

    const entry = async () => (await atpPage(`locationId=${loc.other}&channelId=${ch.wholesale}`)).body.products[0].channels[0];
    expect(await entry()).toMatchObject({ atp: 2, severity: 'LOW', threshold: 3, policyId: first.id });
    expect((await gql(a.key, DELETE, { id: first.id })).deleteAllocationPolicy).toEqual({ id: first.id, mode: 'FIXED' });
    expect(await entry()).toMatchObject({ atp: 7, severity: 'OK', threshold: null, policyId: null });
    expect((await graphqlRefusal(server, a.key, DELETE, { id: first.id })).code).toBe('NOT_FOUND');
  });

  it('validates the input with details', async () => {
    const base = { channelId: ch.web, locationId: loc.other };
    const details = async (input: object) => (await graphqlRefusal(server, a.key, SET, { input: { ...base, ...input } })).details;
    expect(await details({ mode: 'SHARE' })).toEqual({ sharePct: ['Required when mode is SHARE'] });
    expect(await details({ mode: 'SHARE', sharePct: 1.5 })).toEqual({ sharePct: ['Must be from 0 to 1'] });
    expect(await details({ mode: 'FIXED' })).toEqual({ fixedQuantity: ['Required when mode is FIXED'] });
    expect(await details({ mode: 'FIXED', fixedQuantity: -1, lowAtpThreshold: -2 })).toEqual({ fixedQuantity: ['Must be 0 or more'], lowAtpThreshold: ['Must be 0 or more'] });
    expect(await details({ channelId: 'x'.repeat(201), mode: 'FIXED', fixedQuantity: 1 })).toEqual({ channelId: ['At most 200 characters'] });
    expect((await graphqlRefusal(server, a.key, SET, { input: { ...base, channelId: 'nope', mode: 'FIXED', fixedQuantity: 1 } })).code).toBe('NOT_FOUND');
    expect((await graphqlRefusal(server, a.key, SET, { input: { ...base, locationId: 'nope', mode: 'FIXED', fixedQuantity: 1 } })).code).toBe('NOT_FOUND');
    expect(nodesOf((await gql(a.key, POLICIES, { locationId: loc.other })).allocationPolicies)).toEqual([]);
  });

  it('needs inventory.write to change and inventory.read to read', async () => {
    const input = { channelId: ch.web, locationId: loc.other, mode: 'SHARE', sharePct: 0.1 };
    const reader = await a.keyWith(['inventory:read']);
    expect((await gqlError(reader, SET, { input })).code).toBe('INSUFFICIENT_SCOPE');
    expect((await gqlError(reader, DELETE, { id: pol.webWh1 })).code).toBe('INSUFFICIENT_SCOPE');
    expect(nodesOf((await gql(reader, POLICIES, { locationId: loc.wh1 })).allocationPolicies)).toHaveLength(2);
    expect((await gqlError(await a.keyWith(['forecast:read']), POLICIES)).code).toBe('INSUFFICIENT_SCOPE');
    expect((await gqlError(undefined, POLICIES)).code).toBe('MISSING_AUTHORIZATION');
  });
});

describe('tenant isolation', () => {
  it('keeps every REST path to the caller\'s organization', async () => {
    for (const path of [
      `/api/inventory/channel-location?locationId=${loc.wh1}`,
      `/api/inventory/channel-location/drilldown?locationId=${loc.wh1}&productMasterId=${prod.p1}`,
      `/api/inventory/channel-location/drilldown?locationId=${b.warehouse.id}&productMasterId=${prod.p1}`,
      `/api/inventory/channel/summary?locationId=${loc.wh1}`,
      `/api/inventory/channel-location?locationId=${b.warehouse.id}&channels=${ch.web}`,
    ]) expect((await get(path, b.key)).status, path).toBe(404);
    const mine = await atpPage(`locationId=${b.warehouse.id}`, b.key);
    expect(mine.body.products.map((p: any) => p.productMasterId)).toEqual([prod.bp]);
    expect(mine.body.channels.map((c: any) => c.channelId)).toEqual([ch.bWeb]);
    expect((await get('/api/inventory/channel/summary', b.key)).body.channels).toEqual([
      expect.objectContaining({ channelId: ch.bWeb, locations: 1, totalAtp: 50, okCount: 1 }),
    ]);
    // A does not see B's location or channel either.
    expect((await atpPage(`locationId=${b.warehouse.id}`)).status).toBe(404);
  });

  it('keeps every GraphQL field to the caller\'s organization', async () => {
    expect((await gqlError(b.key, ATP_GQL, { locationId: loc.wh1 })).code).toBe('NOT_FOUND');
    expect((await gqlError(b.key, DRILL_GQL, { l: loc.wh1, p: prod.p1 })).code).toBe('NOT_FOUND');
    expect((await gqlError(b.key, DRILL_GQL, { l: b.warehouse.id, p: prod.p1 })).code).toBe('NOT_FOUND');
    expect((await gqlError(b.key, SUMMARY_GQL, { l: loc.wh1 })).code).toBe('NOT_FOUND');
    expect((await gql(b.key, SUMMARY_GQL)).channelSummary).toEqual([{ channelId: ch.bWeb, totalAtp: 50 }]);
    expect(nodesOf((await gql(b.key, POLICIES)).allocationPolicies)).toEqual([]);
    // A's location as a filter is NOT_FOUND for B, as on every list (it was an empty list).
    expect((await gqlError(b.key, POLICIES, { locationId: loc.wh1 })).code).toBe('NOT_FOUND');
    const bInput = { channelId: ch.bWeb, locationId: b.warehouse.id, mode: 'FIXED', fixedQuantity: 1 };
    expect((await graphqlRefusal(server, b.key, SET, { input: { ...bInput, channelId: ch.web } })).code).toBe('NOT_FOUND');
    expect((await graphqlRefusal(server, b.key, SET, { input: { ...bInput, locationId: loc.wh1 } })).code).toBe('NOT_FOUND');
    expect((await graphqlRefusal(server, b.key, DELETE, { id: pol.webWh1 })).code).toBe('NOT_FOUND');
    // A's policy is unchanged.
    const still = await gql(a.key, POLICIES, { locationId: loc.wh1, channelId: ch.web });
    expect(nodesOf(still.allocationPolicies)).toEqual([{ id: pol.webWh1, channelId: ch.web, locationId: loc.wh1 }]);
    expect((await atpPage(`locationId=${loc.wh1}&sku=ATP-001&channelId=${ch.web}`)).body.products[0].channels[0]).toMatchObject({ atp: 28, policyId: pol.webWh1 });
    // B's own data works through GraphQL.
    const own = (await gql(b.key, ATP_GQL, { locationId: b.warehouse.id })).channelLocationAtpPage;
    expect(own.products).toEqual([{ productMasterId: prod.bp, channels: [{ channelId: ch.bWeb, atp: 50, severity: 'OK' }] }]);
  });
});
