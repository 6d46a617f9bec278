import { operatorContext } from '../../../src/context.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelFor, createLocationFor } from '../../../src/services/admin/admin.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';

// The channel summary over varied stock, policies and lots, checked exactly and against the
// channel-location page (the other channel ATP tests are in channel-atp.test.ts).

let server: TestServer;
const today = new Date().toISOString().slice(0, 10);

const SET = `mutation ($input: SetAllocationPolicyInput!) { setAllocationPolicy(input: $input) { ... on AllocationPolicy { id } } }`;

async function setPolicy(input: Record<string, unknown>, token: string) {
  const res = await server.graphql(SET, { input }, token);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.setAllocationPolicy as { id: string };
}

const get = (path: string, token: string) => server.call('GET', path, { token });
const atpPage = (query: string, token: string) => get(`/api/inventory/channel-location?${query}`, token);

async function product(tenant: Tenant, sku: string, name: string) {
  const res = await server.call('POST', '/api/products', { token: tenant.key, body: { sku, name } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const stock = (tenant: Tenant, productMasterId: string, locationId: string, deltas: Record<string, number>, lot: object = {}) =>
  addStock(server.app, tenant.org.id, { productMasterId, locationId, ...lot }, deltas);

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('channel summary over varied data', () => {
  let c: Tenant;
  let d: Tenant;
  const cLoc = {} as Record<'w' | 'l2' | 'l3' | 'l4', string>;
  const cCh = {} as Record<'alpha' | 'beta' | 'gamma' | 'delta', string>;
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    const db = server.app.prisma;
    [c, d] = [await createTenant(db), await createTenant(db)];
    for (const [name, type] of [['Alpha', 'RETAIL'], ['Beta', 'ONLINE'], ['Gamma', 'WHOLESALE'], ['Delta', 'MARKETPLACE']] as const) {
      cCh[name.toLowerCase() as keyof typeof cCh] = (await createChannelFor(operatorContext(db, 'test-setup'), { organizationId: c.org.id, name, type })).id;
    }
    cLoc.w = c.warehouse.id;
    for (const code of ['l2', 'l3', 'l4'] as const) cLoc[code] = (await createLocationFor(operatorContext(db, 'test-setup'), { organizationId: c.org.id, code: code.toUpperCase(), name: code })).id;
    const policy = (channelId: string, locationId: string, terms: object) => setPolicy({ channelId, locationId, ...terms }, c.key);
    await policy(cCh.alpha, cLoc.w, { mode: 'SHARE', sharePct: 0.29, lowAtpThreshold: 20 });
    await policy(cCh.beta, cLoc.w, { mode: 'FIXED', fixedQuantity: 25, lowAtpThreshold: 10 });
    await policy(cCh.gamma, cLoc.w, { mode: 'SHARE', sharePct: 0, lowAtpThreshold: 0 });
    await policy(cCh.alpha, cLoc.l2, { mode: 'FIXED', fixedQuantity: 0, lowAtpThreshold: 5 });
    await policy(cCh.beta, cLoc.l2, { mode: 'SHARE', sharePct: 0.5, lowAtpThreshold: 10 });
    await policy(cCh.gamma, cLoc.l2, { mode: 'FIXED', fixedQuantity: 1000, lowAtpThreshold: 100 });
    await policy(cCh.delta, cLoc.l2, { mode: 'SHARE', sharePct: 1, lowAtpThreshold: 0 });
    // L4 has policies but no stock: counted in policyCount, not in locations.
    await policy(cCh.alpha, cLoc.l4, { mode: 'SHARE', sharePct: 0.7, lowAtpThreshold: 3 });
    await policy(cCh.delta, cLoc.l4, { mode: 'FIXED', fixedQuantity: 5 });

    const p = async (sku: string) => product(c, sku, sku);
    const [p1, p2, p3, p4, p5, p6, p7, p8, p9, p10] = [await p('V-01'), await p('V-02'), await p('V-03'), await p('V-04'), await p('V-05'), await p('V-06'), await p('V-07'), await p('V-08'), await p('V-09'), await p('V-10')];
    const put = (id: string, at: string, deltas: Record<string, number>, lot: object = {}) => stock(c, id, at, deltas, lot);
    // W, available: P1 85 + 12 + 5 = 102 (expired and recalled lots left out), P2 100, P3 8 (expires today), P4 0 (expired only),
    // P5 7 (undated recalled lot left out), P6 0 (empty line), P7 100 − 2 − 1 − 7 = 90.
    await put(p1, cLoc.w, { ON_HAND: 100, RESERVED: 10, ON_HOLD: 5 });
    await put(p1, cLoc.w, { ON_HAND: 30 }, { lotCode: 'EXP', expiryDate: '2020-01-01' });
    await put(p1, cLoc.w, { ON_HAND: 20 }, { lotCode: 'REC', recalled: true, binCode: 'B1' });
    await put(p1, cLoc.w, { ON_HAND: 15, PICKED: 3 }, { lotCode: 'OK', expiryDate: '2099-12-31', binCode: 'B2' });
    await put(p1, cLoc.w, { ON_HAND: 5 }, { lotCode: 'OK', expiryDate: '2099-12-31', binCode: 'B3' });
    await put(p2, cLoc.w, { ON_HAND: 100 });
    await put(p3, cLoc.w, { ON_HAND: 8 }, { lotCode: 'TODAY', expiryDate: today });
    await put(p4, cLoc.w, { ON_HAND: 50 }, { lotCode: 'EXP', expiryDate: yesterday });
    await put(p5, cLoc.w, { ON_HAND: 40 }, { lotCode: 'REC', recalled: true });
    await put(p5, cLoc.w, { ON_HAND: 7 }, { lotCode: 'UNDATED' });
    await put(p6, cLoc.w, { ON_HAND: 3 });
    await put(p6, cLoc.w, { ON_HAND: -3 });
    await put(p7, cLoc.w, { ON_HAND: 100, RECALLED: 2, EXPIRED: 1, ON_HOLD: 7 });
    // L2: P1 19, P2 1, P8 20, P9 0, P10 2000. L3: P2 33, P3 4 (its lot expired yesterday).
    await put(p1, cLoc.l2, { ON_HAND: 24, RESERVED: 5 });
    await put(p2, cLoc.l2, { ON_HAND: 1 });
    await put(p8, cLoc.l2, { ON_HAND: 20 });
    await put(p9, cLoc.l2, { ON_HAND: 5, RESERVED: 5 });
    await put(p10, cLoc.l2, { ON_HAND: 2000 });
    await put(p2, cLoc.l3, { ON_HAND: 33 });
    await put(p3, cLoc.l3, { ON_HAND: 4 });
    await put(p3, cLoc.l3, { ON_HAND: 9 }, { lotCode: 'Y', expiryDate: yesterday });

    // Another organization with channels of the same names, policies and stock: none of it counts for C.
    const dAlpha = (await createChannelFor(operatorContext(db, 'test-setup'), { organizationId: d.org.id, name: 'Alpha', type: 'RETAIL' })).id;
    await createChannelFor(operatorContext(db, 'test-setup'), { organizationId: d.org.id, name: 'Beta', type: 'ONLINE' });
    await setPolicy({ channelId: dAlpha, locationId: d.warehouse.id, mode: 'SHARE', sharePct: 0.5, lowAtpThreshold: 10 }, d.key);
    const q1 = await product(d, 'V-01', 'D one');
    await stock(d, q1, d.warehouse.id, { ON_HAND: 30 });
    await stock(d, await product(d, 'V-02', 'D two'), d.warehouse.id, { ON_HAND: 10 }, { lotCode: 'EXP', expiryDate: '2020-01-01' });
  });

  const summary = async (tenant: Tenant, locationId?: string) => {
    const res = await get(`/api/inventory/channel/summary${locationId ? `?locationId=${locationId}` : ''}`, tenant.key);
    expect(res.status).toBe(200);
    return res.body.channels.map((e: any) => [e.channelName, e.locations, e.policyCount, e.totalAtp, e.criticalCount, e.lowCount, e.okCount]);
  };

  it('gives the exact counts for all locations and for single locations', async () => {
    // [name, locations, policyCount, totalAtp, critical, low, ok]
    expect(await summary(c)).toEqual([
      ['Alpha', 3, 3, 125, 7, 2, 5],
      ['Beta', 3, 2, 1146, 4, 3, 7],
      ['Delta', 3, 2, 2384, 3, 0, 11],
      ['Gamma', 3, 2, 1077, 8, 3, 3],
    ]);
    expect(await summary(c, cLoc.w)).toEqual([
      ['Alpha', 1, 1, 88, 2, 2, 3],
      ['Beta', 1, 1, 90, 2, 2, 3],
      ['Delta', 1, 0, 307, 2, 0, 5],
      ['Gamma', 1, 1, 0, 7, 0, 0],
    ]);
    expect(await summary(c, cLoc.l2)).toEqual([
      ['Alpha', 1, 1, 0, 5, 0, 0],
      ['Beta', 1, 1, 1019, 2, 1, 2],
      ['Delta', 1, 1, 2040, 1, 0, 4],
      ['Gamma', 1, 1, 1040, 1, 3, 1],
    ]);
    expect(await summary(c, cLoc.l4)).toEqual([
      ['Alpha', 0, 1, 0, 0, 0, 0],
      ['Beta', 0, 0, 0, 0, 0, 0],
      ['Delta', 0, 1, 0, 0, 0, 0],
      ['Gamma', 0, 0, 0, 0, 0, 0],
    ]);
    expect(await summary(d)).toEqual([
      ['Alpha', 1, 1, 15, 1, 0, 1],
      ['Beta', 1, 0, 30, 1, 0, 1],
    ]);
  });

  it('agrees with the channel-location page at every location', async () => {
    for (const locationId of Object.values(cLoc)) {
      const page = (await atpPage(`locationId=${locationId}&limit=200`, c.key)).body;
      const expected = page.channels.map((col: any) => {
        const entries = page.products.map((p: any) => p.channels.find((e: any) => e.channelId === col.channelId));
        const count = (severity: string) => entries.filter((e: any) => e.severity === severity).length;
        const sum = entries.reduce((total: number, e: any) => total + e.atp, 0);
        return [col.channelName, entries.length ? 1 : 0, col.policyId ? 1 : 0, sum, count('CRITICAL'), count('LOW'), count('OK')];
      });
      expect(await summary(c, locationId)).toEqual(expected);
    }
  });
});
