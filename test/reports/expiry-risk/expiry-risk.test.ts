import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// Expiry risk: lots expiring in a window, the units that will sell before they expire (demand served first
// expiry first out) and the units and value that will not.
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
/** The Monday of the ISO week holding the day `offset` days from today (UTC). */
const monday = (offset: number) => {
  const d = new Date(`${day(offset)}T00:00:00Z`);
  return new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY);
};
const report = (query: string, token = a.key) => server.call('GET', `/api/reports/expiry-risk?${query}`, { token });
type Item = { sku: string; lotCode: string; expectedToSell: number; atRiskUnits: number; atRiskValue: number; demandSource: string | null };

/**
 * A location of its own:
 * - P1 (unit cost 2.5; a planner's number: 70 per 7 days = 10 a day): lot A expiring in 5 days, 30 free + 4 reserved;
 *   lot B in 10 days, 100; lot C in 200 days (outside the default window), 50; lot OLD expired yesterday, 8.
 *   Demand by A's expiry 50 ≥ 30: A sells all. By B's 100, of which A took 30: B sells 70, 30 at risk (75.00).
 * - P2 (unit cost 1, no demand at all): lot X in 3 days, 20 on hand of which 5 held: 20 at risk (20.00).
 * - P3 (unit cost 10; demand history: 56 units in a recent complete week = 1 a day): lot H in 20 days, 25: sells 20, 5 at risk (50.00).
 * - P4 (unit cost 1; no level, no history: the ledger, 56 units picked = 1 a day): lot Y in 7 days, 70: sells 7, 63 at risk (63.00).
 */
async function crafted(tag: string) {
  const organizationId = a.org.id;
  const prisma = server.app.prisma;
  const location = await prisma.location.create({ data: { organizationId, code: `ER-${tag}`, name: `Expiry ${tag}` } });
  const [p1, p2, p3, p4] = await Promise.all([1, 2, 3, 4].map((n) => createProduct(server, a.key, `${tag}-${n}`)));
  await prisma.productMaster.update({ where: { id: p1! }, data: { unitCost: 2.5 } });
  await prisma.productMaster.update({ where: { id: p2! }, data: { unitCost: 1 } });
  await prisma.productMaster.update({ where: { id: p3! }, data: { unitCost: 10 } });
  await prisma.productMaster.update({ where: { id: p4! }, data: { unitCost: 1 } });
  await prisma.inventoryLevel.create({ data: { organizationId, productMasterId: p1!, locationId: location.id, forecastQuantity: 70, forecastPeriodDays: 7 } });
  await prisma.demandHistory.create({ data: { organizationId, productMasterId: p3!, locationId: location.id, weekStart: monday(-14), actualUnits: 56 } });
  const at = (productMasterId: string, lotCode: string, expiryOffset: number) => ({ productMasterId, locationId: location.id, lotCode, expiryDate: day(expiryOffset) });
  await addStock(server.app, organizationId, at(p1!, 'A', 5), { ON_HAND: 34, RESERVED: 4 });
  await addStock(server.app, organizationId, at(p1!, 'B', 10), { ON_HAND: 100 });
  await addStock(server.app, organizationId, at(p1!, 'C', 200), { ON_HAND: 50 });
  await addStock(server.app, organizationId, at(p1!, 'OLD', -1), { ON_HAND: 8 });
  await addStock(server.app, organizationId, at(p2!, 'X', 3), { ON_HAND: 20, ON_HOLD: 5 });
  await addStock(server.app, organizationId, at(p3!, 'H', 20), { ON_HAND: 25 });
  await addStock(server.app, organizationId, at(p4!, 'Y', 7), { ON_HAND: 126 });
  await addStock(server.app, organizationId, at(p4!, 'Y', 7), { ON_HAND: -56 }, 'PICK');
  return { location, products: [p1!, p2!, p3!, p4!] };
}

describe('expiry risk report', () => {
  it('sorts lots by value at risk, demand served first expiry first out from each source', async () => {
    const { location, products } = await crafted('R1');
    const res = await report(`locationId=${location.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((i: Item) => [i.sku, i.lotCode, i.expectedToSell, i.atRiskUnits, i.atRiskValue, i.demandSource])).toEqual([
      ['R1-1', 'B', 70, 30, 75, 'PLANNER'],
      ['R1-4', 'Y', 7, 63, 63, 'LEDGER'],
      ['R1-3', 'H', 20, 5, 50, 'HISTORY'],
      ['R1-2', 'X', 0, 20, 20, null],
      ['R1-1', 'A', 34, 0, 0, 'PLANNER'],
    ]);
    expect(res.body.data[0]).toMatchObject({
      productMasterId: products[0],
      locationId: location.id,
      expiryDate: day(10),
      daysLeft: 10,
      quantity: 100,
      reserved: 0,
      unitCost: 2.5,
      value: 250,
      demandPerDay: 10,
    });
    expect(res.body.data[3]).toMatchObject({ onHold: 5, quantity: 20, demandPerDay: 0 });

    // A window from yesterday holds the lot already past its expiry date, all at risk; lot C only in a longer window.
    const wider = await report(`locationId=${location.id}&from=${day(-1)}&to=${day(200)}`);
    const rows = wider.body.data.map((i: Item) => [i.sku, i.lotCode, i.expectedToSell, i.atRiskUnits]);
    expect(rows).toContainEqual(['R1-1', 'OLD', 0, 8]);
    // By C's expiry (200 days: 2000 units of demand) A, B and C have all sold.
    expect(rows).toContainEqual(['R1-1', 'C', 50, 0]);
    // A window after lot A: lot B still counts A's units as sold first.
    const later = await report(`locationId=${location.id}&from=${day(8)}&to=${day(30)}`);
    expect(later.body.data.map((i: Item) => [i.lotCode, i.expectedToSell])).toEqual([['B', 70], ['H', 20]]);
  });

  it('answers the same through GraphQL, with links', async () => {
    const { location } = await crafted('R2');
    const res = await server.call('POST', '/graphql', {
      token: a.key,
      body: { query: `query ($id: ID!) { expiryRisk(locationId: $id) { lotCode atRiskUnits lot { code } product { sku } location { id } } }`, variables: { id: location.id } },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.expiryRisk[0]).toEqual({ lotCode: 'B', atRiskUnits: 30, lot: { code: 'B' }, product: { sku: 'R2-1' }, location: { id: location.id } });
  });

  it('refuses bad queries with 400, foreign locations with 404, callers without reports.read with 403', async () => {
    const { location } = await crafted('R3');
    const missing = await report('');
    expect(missing.status).toBe(400);
    expect(missing.body.details.locationId).toBeDefined();
    const backwards = await report(`locationId=${location.id}&from=${day(10)}&to=${day(1)}`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.details.to).toBeDefined();
    const tooLong = await report(`locationId=${location.id}&from=${day(0)}&to=${day(4000)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details.to).toBeDefined();
    expect((await report(`locationId=${location.id}&from=2026-02-30`)).status).toBe(400);
    const unknown = await report(`locationId=${location.id}&limit=5`);
    expect(unknown.status).toBe(400);
    expect((await report(`locationId=${location.id}`, b.key)).status).toBe(404);
    expect((await report('locationId=no-such-location')).status).toBe(404);
    expect((await report(`locationId=${location.id}`, await a.keyWith(['inventory:read']))).status).toBe(403);
    expect((await report(`locationId=${location.id}`, await a.keyWith(['reports:read']))).status).toBe(200);
    // b sees none of a's lots at its own location.
    const own = await report(`locationId=${b.warehouse.id}`, b.key);
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual([]);
  });
});
