import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { createProduct, graphqlData } from '../../support/api.js';
import { addStock } from '../../support/stock.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// Inventory record accuracy: the share of counted lines within tolerance, by class and location, over a period.

let server: TestServer;
let a: Tenant;
let b: Tenant;
let n = 0;

const get = (path: string, token = a.key) => server.call('GET', path, { token });
const post = (path: string, body: unknown, token = a.key) => server.call('POST', path, { token, body });
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** A location whose products (10 on hand each, class as given) are counted at 10 + offset in one batch, then completed (or left as `status`). */
async function counted(code: string, lines: { abcClass?: 'A' | 'B' | 'C'; offset: number }[], status: 'complete' | 'cancel' | 'open' = 'complete') {
  const location = await createLocationFor(server.operator, { organizationId: a.org.id, code, name: `Accuracy ${code}` });
  const ids: string[] = [];
  for (const line of lines) {
    const id = await createProduct(server, a.key, `ACC-${n++}`);
    ids.push(id);
    await addStock(server.app, a.org.id, { productMasterId: id, locationId: location.id }, { ON_HAND: 10 });
    if (line.abcClass) await server.app.prisma.inventoryLevel.create({ data: { organizationId: a.org.id, productMasterId: id, locationId: location.id, abcClass: line.abcClass } });
  }
  const batch = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: ids })).body;
  const counts = batch.lines.map((l: any) => ({ lineId: l.id, countedQty: 10 + lines[ids.indexOf(l.productMasterId)]!.offset }));
  expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts })).status).toBe(200);
  if (status !== 'open') expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: status })).status).toBe(200);
  return { location, batch };
}

const figures = (countedLines: number, withinTolerance: number, exactLines: number, accuracyPercent: number | null) => ({ countedLines, withinTolerance, exactLines, accuracyPercent });

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(async () => {
  if (server) await expectLedgerBalanced(server.app.prisma);
  await server?.close();
});

describe('inventory record accuracy', () => {
  it('answers the share within tolerance of the completed counts of the period, overall, by class and by location', async () => {
    expect((await post('/api/inventory/cycle-count/abc', { tolerance: { units: 1 } })).status).toBe(200);
    const x = await counted('ACC-X', [{ abcClass: 'A', offset: 0 }, { abcClass: 'B', offset: -1 }, { offset: 5 }]);
    const y = await counted('ACC-Y', [{ offset: -3 }]);
    // Counted 100 days ago: outside the default 90 days.
    await server.app.prisma.cycleCountLine.updateMany({ where: { batchId: y.batch.id }, data: { countedAt: new Date(Date.now() - 100 * 86_400_000) } });
    // Neither an open batch (it may be recounted) nor a cancelled one is measured.
    await counted('ACC-OPEN', [{ abcClass: 'A', offset: 7 }], 'open');
    await counted('ACC-GONE', [{ abcClass: 'A', offset: 7 }], 'cancel');

    const res = await get('/api/inventory/cycle-count/accuracy');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      locationId: null,
      from: day(89),
      to: day(0),
      tolerance: { units: 1, percent: 0, value: 0 },
      overall: figures(3, 2, 1, 66.67),
      byClass: [
        { abcClass: 'A', ...figures(1, 1, 1, 100) },
        { abcClass: 'B', ...figures(1, 1, 0, 100) },
        { abcClass: 'C', ...figures(0, 0, 0, null) },
        { abcClass: null, ...figures(1, 0, 0, 0) },
      ],
      byLocation: [{ locationId: x.location.id, locationCode: 'ACC-X', locationName: 'Accuracy ACC-X', ...figures(3, 2, 1, 66.67) }],
    });

    const longer = (await get(`/api/inventory/cycle-count/accuracy?from=${day(120)}`)).body;
    expect(longer.overall).toEqual(figures(4, 2, 1, 50));
    expect(longer.byLocation.map((l: any) => [l.locationCode, l.accuracyPercent])).toEqual([['ACC-X', 66.67], ['ACC-Y', 0]]);
    const onlyY = (await get(`/api/inventory/cycle-count/accuracy?locationId=${y.location.id}&from=${day(120)}&to=${day(95)}`)).body;
    expect(onlyY).toMatchObject({ locationId: y.location.id, from: day(120), to: day(95), overall: figures(1, 0, 0, 0) });
    expect((await get(`/api/inventory/cycle-count/accuracy?from=${day(-1)}&to=${day(-1)}`)).body.overall).toEqual(figures(0, 0, 0, null));

    // The tolerance now is the measure: a wider one takes more lines in.
    await post('/api/inventory/cycle-count/abc', { tolerance: { percent: 50 } });
    expect((await get(`/api/inventory/cycle-count/accuracy?locationId=${x.location.id}`)).body.overall).toEqual(figures(3, 3, 1, 100));
    await post('/api/inventory/cycle-count/abc', { tolerance: { units: 0, percent: 0 } });

    const data = await graphqlData(
      server,
      a.key,
      'query ($l: ID) { cycleCountAccuracy(locationId: $l) { from overall { countedLines accuracyPercent } byClass { abcClass countedLines } byLocation { location { id } exactLines } } }',
      { l: x.location.id },
    );
    expect(data.cycleCountAccuracy).toMatchObject({ from: day(89), overall: { countedLines: 3, accuracyPercent: 33.33 }, byLocation: [{ location: { id: x.location.id }, exactLines: 1 }] });
    expect(data.cycleCountAccuracy.byClass.map((c: any) => c.abcClass)).toEqual(['A', 'B', 'C', null]);
  });

  it('refuses a bad period or a foreign location, and wants inventory.cyclecount', async () => {
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-03-02&to=2026-03-01', 'to'],
      ['from=2000-01-01&to=2026-01-01', 'to'],
      ['locale=en', 'locale'],
    ] as const) {
      const res = await get(`/api/inventory/cycle-count/accuracy?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.details[field], JSON.stringify(res.body)).toBeDefined();
    }
    expect((await get(`/api/inventory/cycle-count/accuracy?locationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await get('/api/inventory/cycle-count/accuracy', b.key)).body.overall.countedLines).toBe(0);
    expect((await get('/api/inventory/cycle-count/accuracy', await a.keyWith(['inventory:read']))).status).toBe(403);
    expect((await server.call('GET', '/api/inventory/cycle-count/accuracy')).status).toBe(401);
  });
});
