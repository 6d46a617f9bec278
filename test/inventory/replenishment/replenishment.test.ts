import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, graphqlData, graphqlRefusal } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import { REFUSAL } from '../../support/graphql.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// Replenishment: a configuration per location (GET defaults, POST by tenant administrators) and records made
// from suggestions, PROPOSED → APPROVED → ORDERED (a draft purchase order or a DRAFT transfer), or CANCELLED.
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown, token = a.key) => server.call(method, path, { token, body });
const getConfig = (locationId: string, token = a.key) => call('GET', `/api/inventory/replenishment/config?locationId=${locationId}`, undefined, token);
const setConfig = (body: unknown, token = a.key) => call('POST', '/api/inventory/replenishment/config', body, token);
const list = (query = '', token = a.key) => call('GET', `/api/inventory/replenishment?${query}`, undefined, token);
const act = (body: unknown, token = a.key) => call('POST', '/api/inventory/replenishment', body, token);
const record = (id: string) => server.app.prisma.replenishmentRecord.findUniqueOrThrow({ where: { id } });

const DAY_MS = 86_400_000;
const today = () => new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00.000Z');
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** A location of its own, a product with a unit cost, a supplier with a lead time and one without, and a source location. */
async function setUp(tag: string) {
  const organizationId = a.org.id;
  const location = await server.app.prisma.location.create({ data: { organizationId, code: `RP-${tag}`, name: `Replenished ${tag}` } });
  const source = await server.app.prisma.location.create({ data: { organizationId, code: `RS-${tag}`, name: `Source ${tag}` } });
  const product = await createProduct(server, a.key, `${tag}-1`);
  await server.app.prisma.productMaster.update({ where: { id: product }, data: { unitCost: 2.5 } });
  const supplier = await server.app.prisma.supplier.create({ data: { organizationId, code: `SUP-${tag}`, name: `Supplier ${tag}`, leadTimeDays: 10 } });
  const slowSupplier = await server.app.prisma.supplier.create({ data: { organizationId, code: `SUP0-${tag}`, name: `No lead ${tag}` } });
  const item = (extra: Record<string, unknown> = {}) => ({ productMasterId: product, locationId: location.id, quantity: 40, sourceType: 'SUPPLIER', supplierId: supplier.id, needBy: '2031-03-01', reason: 'Below reorder point', ...extra });
  const fromSource = (extra: Record<string, unknown> = {}) => item({ sourceType: 'LOCATION', supplierId: undefined, sourceLocationId: source.id, quantity: 12, ...extra });
  return { location, source, product, supplier, slowSupplier, item, fromSource };
}

const created = async (items: unknown[]) => {
  const res = await act({ action: 'create', items });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; status: string; productMasterId: string }[];
};

describe('replenishment configuration', () => {
  it('answers the defaults until one is stored, then the stored one; fields not given keep their value; one default source', async () => {
    const { location, source, supplier } = await setUp('CF');
    const fresh = await getConfig(location.id);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body).toEqual({ id: null, locationId: location.id, method: 'MIN_MAX', reviewPeriodDays: 7, safetyStockDays: 0, defaultSourceLocationId: null, defaultSupplierId: null, stored: false, updatedAt: null, updatedBy: null });

    const stored = await setConfig({ locationId: location.id, method: 'FORECAST_COVER', reviewPeriodDays: 14, defaultSupplierId: supplier.id });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body).toMatchObject({ locationId: location.id, method: 'FORECAST_COVER', reviewPeriodDays: 14, safetyStockDays: 0, defaultSupplierId: supplier.id, defaultSourceLocationId: null, stored: true });
    expect(stored.body.id).toEqual(expect.any(String));
    const apiKey = await server.app.prisma.apiKey.findFirstOrThrow({ where: { organizationId: a.org.id, scopes: { has: '*' } } });
    expect(stored.body.updatedBy).toBe(apiKey.id);

    // A default source location replaces the supplier; the method and period stay.
    const changed = await setConfig({ locationId: location.id, safetyStockDays: 3, defaultSourceLocationId: source.id });
    expect(changed.body).toMatchObject({ id: stored.body.id, method: 'FORECAST_COVER', reviewPeriodDays: 14, safetyStockDays: 3, defaultSourceLocationId: source.id, defaultSupplierId: null });
    expect((await getConfig(location.id)).body).toEqual({ ...changed.body, stored: true });
    const cleared = await setConfig({ locationId: location.id, defaultSourceLocationId: null });
    expect(cleared.body).toMatchObject({ defaultSourceLocationId: null, defaultSupplierId: null, safetyStockDays: 3 });
    expect(await server.app.prisma.replenishmentConfig.count({ where: { locationId: location.id } })).toBe(1);
  });

  it('refuses out-of-bounds and malformed bodies (400 naming the field), ids not of the organization (404), changing nothing', async () => {
    const { location } = await setUp('CB');
    const theirSupplier = await server.app.prisma.supplier.create({ data: { organizationId: b.org.id, code: 'SUP-B', name: 'Theirs' } });
    const refused = async (body: Record<string, unknown>, status: number, field?: string) => {
      const res = await setConfig({ locationId: location.id, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (field) expect(Object.keys(res.body.details)).toContain(field);
    };
    await refused({ reviewPeriodDays: 0 }, 400, 'reviewPeriodDays');
    await refused({ reviewPeriodDays: 366 }, 400, 'reviewPeriodDays');
    await refused({ reviewPeriodDays: 1.5 }, 400, 'reviewPeriodDays');
    await refused({ safetyStockDays: -1 }, 400, 'safetyStockDays');
    await refused({ safetyStockDays: 366 }, 400, 'safetyStockDays');
    await refused({ method: 'EOQ' }, 400, 'method');
    await refused({ defaultSourceLocationId: a.warehouse.id, defaultSupplierId: theirSupplier.id }, 400, 'defaultSupplierId');
    await refused({ defaultSourceLocationId: location.id }, 400, 'defaultSourceLocationId');
    await refused({ colour: 'red' }, 400);
    await refused({ defaultSupplierId: theirSupplier.id }, 404);
    await refused({ defaultSupplierId: 'no-such-supplier' }, 404);
    await refused({ defaultSourceLocationId: b.warehouse.id }, 404);
    expect((await setConfig({ locationId: b.warehouse.id, reviewPeriodDays: 3 })).status).toBe(404);
    expect((await setConfig({ reviewPeriodDays: 3 })).status).toBe(400);
    expect(await server.app.prisma.replenishmentConfig.count({ where: { locationId: { in: [location.id, b.warehouse.id] } } })).toBe(0);
    expect((await call('GET', '/api/inventory/replenishment/config')).status).toBe(400);
    expect((await getConfig(b.warehouse.id)).status).toBe(404);
    expect((await getConfig('no-such-location')).status).toBe(404);
  });

  it('needs replenishment.read to read, and replenishment.write and a tenant administrator to change (403 otherwise)', async () => {
    const { location } = await setUp('CP');
    const planner = await a.keyWith(['planning:*']);
    const reader = await a.keyWith(['inventory:read']);
    const none = await a.keyWith(['forecast:read']);
    expect((await getConfig(location.id, reader)).status).toBe(200);
    expect((await getConfig(location.id, none)).status).toBe(403);
    const notAdmin = await setConfig({ locationId: location.id, reviewPeriodDays: 3 }, planner);
    expect(notAdmin.status, JSON.stringify(notAdmin.body)).toBe(403);
    expect(notAdmin.body.code).toBe('FORBIDDEN');
    expect((await setConfig({ locationId: location.id, reviewPeriodDays: 3 }, reader)).status).toBe(403);
    expect(await server.app.prisma.replenishmentConfig.count({ where: { locationId: location.id } })).toBe(0);
    // Signed-in users: a MANAGER holds replenishment.write but is no tenant administrator; an ADMIN is.
    const signIn = async (role: 'ADMIN' | 'MANAGER') => {
      const user = await a.userWith(role);
      return (await server.call('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password } })).body.token as string;
    };
    expect((await setConfig({ locationId: location.id, reviewPeriodDays: 3 }, await signIn('MANAGER'))).status).toBe(403);
    expect(await server.app.prisma.replenishmentConfig.count({ where: { locationId: location.id } })).toBe(0);
    expect((await setConfig({ locationId: location.id, reviewPeriodDays: 3 }, await signIn('ADMIN'))).body).toMatchObject({ reviewPeriodDays: 3, stored: true });
    // The other organization's administrator cannot see or change this location.
    expect((await getConfig(location.id, b.key)).status).toBe(404);
    expect((await setConfig({ locationId: location.id, reviewPeriodDays: 3 }, b.key)).status).toBe(404);
  });
});

describe('replenishment records', () => {
  it('creates PROPOSED records from suggestion items and lists them with filters and paging', async () => {
    const { location, product, supplier, source, item, fromSource } = await setUp('RL');
    const [r1, r2] = await created([item(), fromSource({ reason: null })]);
    expect(r1).toMatchObject({ productMasterId: product, locationId: location.id, quantity: 40, sourceType: 'SUPPLIER', supplierId: supplier.id, sourceLocationId: null, needBy: '2031-03-01', reason: 'Below reorder point', status: 'PROPOSED', purchaseOrderId: null, transferId: null });
    expect(r2).toMatchObject({ sourceType: 'LOCATION', supplierId: null, sourceLocationId: source.id, quantity: 12, reason: null, status: 'PROPOSED' });
    await act({ action: 'approve', id: r2!.id });

    const all = await list(`locationId=${location.id}`);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(all.body.records.map((r: { id: string }) => r.id)).toEqual([r2!.id, r1!.id]);
    expect(all.body.data).toEqual(all.body.records);
    expect((await list(`locationId=${location.id}&status=approved`)).body.records.map((r: { id: string }) => r.id)).toEqual([r2!.id]);
    expect((await list(`locationId=${location.id}&status=PROPOSED,APPROVED&limit=1&offset=1`)).body).toMatchObject({ total: 2, records: [{ id: r1!.id }] });
    expect((await list(`productMasterId=${product}`)).body.total).toBe(2);
    expect((await list(`locationId=${location.id}&status=ORDERED`)).body.total).toBe(0);
    expect((await list('limit=101')).status).toBe(400);
    expect((await list('offset=-1')).status).toBe(400);
    expect((await list('status=SHIPPED')).status).toBe(400);
    expect((await list('colour=red')).status).toBe(400);
    expect((await list(`locationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await list(`productMasterId=${await createProduct(server, b.key, 'RL-B')}`)).status).toBe(404);
    // The other organization lists none of them.
    expect((await list('', b.key)).body.records.some((r: { id: string }) => [r1!.id, r2!.id].includes(r.id))).toBe(false);
  });

  it('refuses bad items (400 naming the field) and ids not of the organization (404), creating nothing', async () => {
    const { location, item, fromSource } = await setUp('RB');
    const theirSupplier = await server.app.prisma.supplier.create({ data: { organizationId: b.org.id, code: 'SUP-RB', name: 'Theirs' } });
    const theirProduct = await createProduct(server, b.key, 'RB-B');
    const count = () => server.app.prisma.replenishmentRecord.count({ where: { organizationId: { in: [a.org.id, b.org.id] } } });
    const before = await count();
    const refused = async (body: unknown, status: number, fields: string[] = []) => {
      const res = await act(body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      for (const field of fields) expect(Object.keys(res.body.details)).toContain(field);
    };
    await refused({ action: 'create', items: [item({ quantity: 0 })] }, 400, ['items.0.quantity']);
    await refused({ action: 'create', items: [item({ quantity: 2_147_483_648 })] }, 400, ['items.0.quantity']);
    await refused({ action: 'create', items: [item({ supplierId: undefined })] }, 400, ['items.0.supplierId']);
    await refused({ action: 'create', items: [fromSource({ sourceLocationId: location.id })] }, 400, ['items.0.sourceLocationId']);
    await refused({ action: 'create', items: [item({ sourceLocationId: location.id })] }, 400, ['items.0.sourceLocationId']);
    await refused({ action: 'create', items: [item({ needBy: '2031-02-30' })] }, 400, ['items.0.needBy']);
    await refused({ action: 'create', items: [item({ sourceType: 'FACTORY' })] }, 400, ['items.0.sourceType']);
    await refused({ action: 'create', items: [item({ reason: 'x'.repeat(501) })] }, 400, ['items.0.reason']);
    await refused({ action: 'create', items: [item({ colour: 'red' })] }, 400);
    await refused({ action: 'create', items: [] }, 400, ['items']);
    await refused({ action: 'create', items: Array.from({ length: 201 }, () => item()) }, 400, ['items']);
    await refused({ action: 'ship', id: 'x' }, 400, ['action']);
    await refused({ items: [item()] }, 400, ['action']);
    await refused({ action: 'approve' }, 400, ['id']);
    await refused({ action: 'create', items: [item(), item({ productMasterId: theirProduct })] }, 404);
    await refused({ action: 'create', items: [item({ supplierId: theirSupplier.id })] }, 404);
    await refused({ action: 'create', items: [item({ locationId: b.warehouse.id })] }, 404);
    await refused({ action: 'create', items: [fromSource({ sourceLocationId: b.warehouse.id })] }, 404);
    expect(await count()).toBe(before);
  });

  it('moves PROPOSED → APPROVED → ORDERED and PROPOSED/APPROVED → CANCELLED; every other move is 409 and changes nothing', async () => {
    const { item } = await setUp('RS');
    const [toApprove, toCancelProposed, toCancelApproved, toConvert] = await created([item(), item(), item(), item({ supplierId: undefined, sourceType: 'LOCATION', sourceLocationId: a.warehouse.id })]);
    const move = async (action: string, id: string, status = 200) => {
      const res = await act({ action, id, comment: `${action}d` });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      return res.body;
    };
    const approved = await move('approve', toApprove!.id);
    expect(approved.data).toHaveLength(1);
    expect(approved.data[0]).toMatchObject({ id: toApprove!.id, status: 'APPROVED', comment: 'approved', approvedBy: expect.any(String) });
    expect(approved.data[0].approvedAt).toEqual(expect.any(String));
    expect((await move('cancel', toCancelProposed!.id)).data[0]).toMatchObject({ status: 'CANCELLED', cancelledBy: expect.any(String) });
    await move('approve', toCancelApproved!.id);
    expect((await move('cancel', toCancelApproved!.id)).data[0]).toMatchObject({ status: 'CANCELLED' });
    await move('approve', toConvert!.id);
    expect((await move('convert', toConvert!.id)).data[0]).toMatchObject({ status: 'ORDERED', transferId: expect.any(String) });

    const conflict = async (action: string, id: string) => {
      const before = await record(id);
      const transfers = await server.app.prisma.inventoryTransfer.count({ where: { organizationId: a.org.id } });
      const orders = await server.app.prisma.purchaseOrder.count({ where: { organizationId: a.org.id } });
      const body = await move(action, id, 409);
      expect(body.code).toBe('INVALID_STATE');
      expect(await record(id)).toEqual(before);
      expect(await server.app.prisma.inventoryTransfer.count({ where: { organizationId: a.org.id } })).toBe(transfers);
      expect(await server.app.prisma.purchaseOrder.count({ where: { organizationId: a.org.id } })).toBe(orders);
    };
    const [proposed] = await created([item()]);
    await conflict('convert', proposed!.id); // PROPOSED cannot be converted
    await conflict('approve', toApprove!.id); // APPROVED
    await conflict('approve', toConvert!.id); // ORDERED
    await conflict('convert', toConvert!.id);
    await conflict('cancel', toConvert!.id);
    await conflict('approve', toCancelProposed!.id); // CANCELLED
    await conflict('convert', toCancelProposed!.id);
    await conflict('cancel', toCancelProposed!.id);

    // Unknown and foreign ids: 404 on every move, nothing changed.
    for (const action of ['approve', 'convert', 'cancel']) {
      expect((await act({ action, id: 'no-such-record' })).status).toBe(404);
      expect((await act({ action, id: proposed!.id }, b.key)).status).toBe(404);
    }
    expect((await record(proposed!.id)).status).toBe('PROPOSED');
  });

  it('converts a SUPPLIER record to a PENDING purchase order of one line, numbered per organization', async () => {
    const { location, product, supplier, slowSupplier, item } = await setUp('PO');
    const [withLead, withoutLead] = await created([item(), item({ supplierId: slowSupplier.id, quantity: 7, needBy: '2031-04-15' })]);
    for (const r of [withLead!, withoutLead!]) await act({ action: 'approve', id: r.id });
    const first = await act({ action: 'convert', id: withLead!.id });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const converted = first.body.data[0];
    expect(converted).toMatchObject({ status: 'ORDERED', transferId: null, orderedBy: expect.any(String) });
    const order = await server.app.prisma.purchaseOrder.findUniqueOrThrow({ where: { id: converted.purchaseOrderId }, include: { lines: true } });
    const expectedAt = new Date(today().getTime() + 10 * DAY_MS);
    expect(order).toMatchObject({ organizationId: a.org.id, supplierId: supplier.id, destinationLocationId: location.id, status: 'PENDING', expectedAt });
    expect(order.number).toMatch(/^RPL-\d{6}$/);
    expect(order.lines).toHaveLength(1);
    expect(order.lines[0]).toMatchObject({ lineNumber: 1, productMasterId: product, quantity: 40, receivedQuantity: 0, expectedAt });
    expect(order.lines[0]!.unitCost?.toNumber()).toBe(2.5);

    // No lead time: expected on the need-by date; the next number.
    const second = await act({ action: 'convert', id: withoutLead!.id });
    const other = await server.app.prisma.purchaseOrder.findUniqueOrThrow({ where: { id: second.body.data[0].purchaseOrderId }, include: { lines: true } });
    expect(isoDay(other.expectedAt!)).toBe('2031-04-15');
    expect(other.lines[0]).toMatchObject({ quantity: 7, productMasterId: product });
    expect(Number(other.number.slice(4))).toBe(Number(order.number.slice(4)) + 1);
  });

  it('converts once under concurrent requests: one order, the others 409', async () => {
    const { item } = await setUp('CC');
    const [r] = await created([item()]);
    await act({ action: 'approve', id: r!.id });
    const answers = await Promise.all(Array.from({ length: 5 }, () => act({ action: 'convert', id: r!.id })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await server.app.prisma.purchaseOrder.count({ where: { organizationId: a.org.id, lines: { some: { productMasterId: r!.productMasterId } } } })).toBe(1);
  });

  it('converts a LOCATION record to a DRAFT inventory transfer (nothing shipped)', async () => {
    const { location, source, product, fromSource } = await setUp('TR');
    const [r] = await created([fromSource()]);
    await act({ action: 'approve', id: r!.id });
    const res = await act({ action: 'convert', id: r!.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const transfer = await server.app.prisma.inventoryTransfer.findUniqueOrThrow({ where: { id: res.body.data[0].transferId }, include: { lines: true } });
    expect(transfer).toMatchObject({ organizationId: a.org.id, sourceLocationId: source.id, destLocationId: location.id, status: 'DRAFT', reference: `Replenishment ${r!.id}`, shippedAt: null });
    expect(isoDay(transfer.expectedAt!)).toBe('2031-03-01');
    expect(transfer.lines.map((l) => [l.lineNumber, l.productMasterId, l.quantity, l.shippedQuantity])).toEqual([[1, product, 12, 0]]);
    const viaRest = await call('GET', `/api/inventory/transfers/${transfer.id}`);
    expect(viaRest.body.status).toBe('DRAFT');
  });

  it('needs replenishment.read to list and replenishment.write to act', async () => {
    const { item } = await setUp('RP');
    const reader = await a.keyWith(['inventory:read']);
    const none = await a.keyWith(['forecast:read']);
    const planner = await a.keyWith(['planning:*']);
    expect((await list('', reader)).status).toBe(200);
    expect((await list('', none)).status).toBe(403);
    expect((await act({ action: 'create', items: [item()] }, reader)).status).toBe(403);
    const [r] = (await act({ action: 'create', items: [item()] }, planner)).body.data;
    expect((await act({ action: 'approve', id: r.id }, reader)).status).toBe(403);
    expect((await record(r.id)).status).toBe('PROPOSED');
  });

  it('GraphQL: the records connection, node(id:), the config, and typed refusals', async () => {
    const { location, item } = await setUp('GQ');
    const [r] = await created([item(), item({ quantity: 5 })]);
    const data = await graphqlData(
      server,
      a.key,
      `query ($locationId: ID!, $id: ID!) {
        replenishmentRecords(locationId: $locationId, first: 1) { totalCount pageInfo { hasNextPage } edges { node { quantity status product { sku } supplier { code } location { code } } } }
        node(id: $id) { __typename ... on ReplenishmentRecord { quantity } }
        replenishmentConfig(locationId: $locationId) { method stored config { id } location { code } }
      }`,
      { locationId: location.id, id: r!.id },
    );
    expect(data.replenishmentRecords).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
    expect(data.replenishmentRecords.edges[0].node).toEqual({ quantity: 5, status: 'PROPOSED', product: { sku: 'GQ-1' }, supplier: { code: 'SUP-GQ' }, location: { code: 'RP-GQ' } });
    expect(data.node).toEqual({ __typename: 'ReplenishmentRecord', quantity: 40 });
    expect(data.replenishmentConfig).toEqual({ method: 'MIN_MAX', stored: false, config: null, location: { code: 'RP-GQ' } });

    const convert = `mutation ($input: ReplenishmentMoveInput!) { convertReplenishmentRecord(input: $input) { ... on ReplenishmentRecord { status } ${REFUSAL} } }`;
    expect(await graphqlRefusal(server, a.key, convert, { input: { id: r!.id } })).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
    expect(await graphqlRefusal(server, a.key, convert, { input: { id: 'no-such-record' } })).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND' });
    const approve = `mutation ($input: ReplenishmentMoveInput!) { approveReplenishmentRecord(input: $input) { ... on ReplenishmentRecord { status } ${REFUSAL} } }`;
    expect((await graphqlData(server, a.key, approve, { input: { id: r!.id } })).approveReplenishmentRecord).toEqual({ status: 'APPROVED' });
    const converted = await graphqlData(server, a.key, `mutation ($input: ReplenishmentMoveInput!) { convertReplenishmentRecord(input: $input) { ... on ReplenishmentRecord { status purchaseOrder { status lines { quantity } } } } }`, { input: { id: r!.id } });
    expect(converted.convertReplenishmentRecord).toEqual({ status: 'ORDERED', purchaseOrder: { status: 'PENDING', lines: [{ quantity: 40 }] } });
    const create = `mutation ($input: ReplenishmentCreateInput!) { createReplenishmentRecords(input: $input) { ... on ReplenishmentRecordList { records { id } } ${REFUSAL} } }`;
    expect(await graphqlRefusal(server, a.key, create, { input: { items: [item({ quantity: 0 })] } })).toMatchObject({ type: 'ValidationError', details: { 'items.0.quantity': [expect.any(String)] } });
    const config = `mutation ($input: ReplenishmentConfigInput!) { updateReplenishmentConfig(input: $input) { ... on ReplenishmentConfig { id reviewPeriodDays } ${REFUSAL} } }`;
    expect(await graphqlRefusal(server, a.key, config, { input: { locationId: b.warehouse.id } })).toMatchObject({ type: 'NotFoundError' });
    expect((await graphqlData(server, a.key, config, { input: { locationId: location.id, reviewPeriodDays: 30 } })).updateReplenishmentConfig.reviewPeriodDays).toBe(30);
  });
});
