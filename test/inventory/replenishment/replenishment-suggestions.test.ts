import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayAfter, insertWeeklyDemand } from '../../support/demand-history.js';
import type { Tenant } from '../../support/fixtures.js';
import { day, planningData, thisMonday } from '../../support/planning.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// POST /api/inventory/replenishment/suggestions: the planning recommendations of a location run with its
// replenishment configuration (or this run's settings), writing nothing; ORDER suggestions become records.
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const suggest = (body: unknown, token = a.key) => server.call('POST', '/api/inventory/replenishment/suggestions', { token, body });
type Row = Record<string, any>;

describe('replenishment suggestions', () => {
  let loc: { id: string };
  let spare: { id: string };
  let history: string;
  let quiet: string;
  let supplier: { id: string };

  beforeAll(async () => {
    const data = planningData(server);
    loc = await data.place('RS', a);
    spare = await data.place('RS-SPARE', a);
    // 10 a day from 8 weeks of history; 100 on hand, reorder point 50, maximum 200, lead time 7 days.
    history = await data.product('RS-H', loc.id, { min: 20, reorder: 50, max: 200, lead: 7 }, 100, a);
    await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId: history, locationId: loc.id, firstWeek: dayAfter(thisMonday(), -56), values: [70, 70, 70, 70, 70, 70, 70, 70] });
    // Out of stock with a reorder point: ORDER too (no demand: up to its maximum).
    quiet = await data.product('RS-Q', loc.id, { reorder: 5, max: 10, lead: 2 }, 0, a);
    supplier = await server.app.prisma.supplier.create({ data: { organizationId: a.org.id, code: 'RS-SUP', name: 'Replenishment supplier', leadTimeDays: 3 } });
  });

  it('without a stored configuration answers the planning recommendations of the location, writing nothing', async () => {
    const records = await server.app.prisma.replenishmentRecord.count();
    const res = await suggest({ locationId: loc.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ locationId: loc.id, method: 'MIN_MAX', reviewPeriodDays: null, safetyStockDays: 0, supplierId: null, sourceLocationId: null, configStored: false });
    const planning = await server.call('GET', `/api/planning/recommendations?locationId=${loc.id}`, { token: a.key });
    expect(res.body.data).toEqual(planning.body.data);
    const ordered = res.body.data.find((row: Row) => row.productMasterId === history);
    expect(ordered).toMatchObject({ action: 'ORDER', quantity: 170, needBy: day(5), demandSource: 'HISTORY', sourceType: null });
    expect(res.body.data.map((row: Row) => row.productMasterId).sort()).toEqual([history, quiet].sort());
    expect(await server.app.prisma.replenishmentRecord.count()).toBe(records);
  });

  it("uses the location's stored configuration, and this run's settings over it", async () => {
    const stored = await server.call('POST', '/api/inventory/replenishment/config', { token: a.key, body: { locationId: loc.id, reviewPeriodDays: 14, defaultSupplierId: supplier.id } });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const res = await suggest({ locationId: loc.id, productMasterIds: [history] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ method: 'MIN_MAX', reviewPeriodDays: 14, supplierId: supplier.id, sourceLocationId: null, configStored: true });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ productMasterId: history, action: 'ORDER', sourceType: 'SUPPLIER', supplierId: supplier.id, horizonDays: 7 + 14 });

    const overridden = await suggest({ locationId: loc.id, productMasterIds: [history], reviewPeriodDays: 30, sourceLocationId: spare.id });
    expect(overridden.status, JSON.stringify(overridden.body)).toBe(200);
    expect(overridden.body).toMatchObject({ reviewPeriodDays: 30, supplierId: null, sourceLocationId: spare.id });
    expect(overridden.body.data[0]).toMatchObject({ horizonDays: 7 + 30 });
    await server.app.prisma.replenishmentConfig.deleteMany({ where: { locationId: loc.id } });
  });

  it('gives what creating a record takes: an ORDER suggestion becomes a PROPOSED record', async () => {
    const res = await suggest({ locationId: loc.id, productMasterIds: [history], supplierId: supplier.id });
    const s = res.body.data[0];
    const created = await server.call('POST', '/api/inventory/replenishment', {
      token: a.key,
      body: { action: 'create', items: [{ productMasterId: s.productMasterId, locationId: s.locationId, quantity: s.quantity, sourceType: s.sourceType, supplierId: s.supplierId, needBy: s.needBy, reason: s.reason }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data[0]).toMatchObject({ status: 'PROPOSED', productMasterId: history, quantity: 170, sourceType: 'SUPPLIER', supplierId: supplier.id, needBy: day(5) });
  });

  it('answers the same through GraphQL', async () => {
    const res = await server.graphql(
      `query ($input: ReplenishmentSuggestionsInput!) { replenishmentSuggestions(input: $input) { method configStored suggestions { action quantity product { id } } } }`,
      { input: { locationId: loc.id, productMasterIds: [history] } },
      a.key,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.replenishmentSuggestions).toEqual({ method: 'MIN_MAX', configStored: false, suggestions: [{ action: 'ORDER', quantity: 170, product: { id: expect.any(String) } }] });
  });

  it('refuses bad input (400), ids of another organization (404), callers without replenishment.read (403)', async () => {
    const bad = async (body: unknown, field: string) => {
      const res = await suggest(body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.details[field], JSON.stringify(res.body)).toBeDefined();
    };
    await bad({}, 'locationId');
    await bad({ locationId: loc.id, supplierId: supplier.id, sourceLocationId: spare.id }, 'sourceLocationId');
    await bad({ locationId: loc.id, sourceLocationId: loc.id }, 'sourceLocationId');
    await bad({ locationId: loc.id, reviewPeriodDays: 0 }, 'reviewPeriodDays');
    await bad({ locationId: loc.id, safetyStockDays: 366 }, 'safetyStockDays');
    await bad({ locationId: loc.id, method: 'GUESS' }, 'method');
    await bad({ locationId: loc.id, productMasterIds: [] }, 'productMasterIds');
    await bad({ locationId: loc.id, limit: 5 }, 'limit');
    expect((await suggest({ locationId: loc.id }, b.key)).status).toBe(404);
    expect((await suggest({ locationId: 'nope' })).status).toBe(404);
    const foreignProduct = await planningData(server).product('RS-B', b.warehouse.id, { reorder: 5, max: 10 }, 0, b);
    expect((await suggest({ locationId: loc.id, productMasterIds: [foreignProduct] })).status).toBe(404);
    const foreignSupplier = await server.app.prisma.supplier.create({ data: { organizationId: b.org.id, code: 'RS-B-SUP', name: 'Theirs' } });
    expect((await suggest({ locationId: loc.id, supplierId: foreignSupplier.id })).status).toBe(404);
    expect((await suggest({ locationId: loc.id }, await a.keyWith(['forecast:read']))).status).toBe(403);
    expect((await suggest({ locationId: loc.id }, await a.keyWith(['inventory:read']))).status).toBe(200);
    expect((await suggest({ locationId: loc.id }, await a.keyWith(['planning:*']))).status).toBe(200);
    // b's own location answers b's products only.
    const own = await suggest({ locationId: b.warehouse.id }, b.key);
    expect(own.status).toBe(200);
    expect(own.body.data.map((row: Row) => row.productMasterId)).toEqual([foreignProduct]);
  });
});
