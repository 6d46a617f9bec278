import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import type { Tenant } from '../../support/fixtures.js';
import { REFUSAL } from '../../support/graphql.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { createProduct, graphqlData, graphqlRefusal } from '../../support/api.js';
import { addStock } from '../../support/stock.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// Cycle count batches: the snapshot, counts (found lines, recounts), completion and cancellation, the list.

let server: TestServer;
let a: Tenant;
let b: Tenant;
let n = 0;

const newLocation = (t: Tenant) => createLocationFor(server.operator, { organizationId: t.org.id, code: `CB${n++}`, name: `Batch site ${n}` });
const get = (path: string, token = a.key) => server.call('GET', path, { token });
const post = (path: string, body: unknown, token = a.key) => server.call('POST', path, { token, body });

/** A location with two products: p1 on two lines (bin A-01, lot L1), p2 on one. */
async function site() {
  const location = await newLocation(a);
  const [p1, p2] = await Promise.all(['BAT-1', 'BAT-2'].map((sku) => createProduct(server, a.key, `${sku}-${n++}`)));
  const l1 = await addStock(server.app, a.org.id, { productMasterId: p1!, locationId: location.id, binCode: 'A-01' }, { ON_HAND: 4 });
  const l2 = await addStock(server.app, a.org.id, { productMasterId: p1!, locationId: location.id, lotCode: 'L1' }, { ON_HAND: 6 });
  const l3 = await addStock(server.app, a.org.id, { productMasterId: p2!, locationId: location.id }, { ON_HAND: 3 });
  return { location, p1: p1!, p2: p2!, lines: [l1, l2, l3] };
}

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(async () => {
  if (server) await expectLedgerBalanced(server.app.prisma);
  await server?.close();
});

describe('creating a batch', () => {
  it('snapshots every line of the products chosen, assigned to a user of the organization', async () => {
    const { location, p1, lines } = await site();
    const res = await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1], assigneeId: a.admin.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ locationId: location.id, status: 'IN_PROGRESS', assigneeId: a.admin.id, itemCount: 2 });
    expect(res.body.lines.map((l: any) => [l.stockLineId, l.snapshotQty, l.countedQty]).sort()).toEqual([[lines[0]!.id, 4, null], [lines[1]!.id, 6, null]].sort());
    const read = await get(`/api/inventory/cycle-count/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('takes bins or the next N of the schedule', async () => {
    const { location, lines } = await site();
    const bin = await server.app.prisma.bin.findFirstOrThrow({ where: { locationId: location.id, code: 'A-01' } });
    const byBin = await post('/api/inventory/cycle-count', { locationId: location.id, binIds: [bin.id] });
    expect(byBin.body.lines.map((l: any) => l.stockLineId)).toEqual([lines[0]!.id]);
    // The suggestions leave out p1, which the open bin batch counts in part: p2's line only.
    const suggested = await post('/api/inventory/cycle-count', { locationId: location.id, suggested: 5 });
    expect(suggested.status).toBe(201);
    expect(suggested.body.lines.map((l: any) => l.stockLineId)).toEqual([lines[2]!.id]);
    await post(`/api/inventory/cycle-count/${byBin.body.id}`, { action: 'cancel' });
    expect((await post('/api/inventory/cycle-count', { locationId: location.id, suggested: 5 })).body.itemCount).toBe(2);
  });

  it('refuses foreign or unknown ids in the body with 400 naming them, and creates nothing', async () => {
    const { location, p1 } = await site();
    const before = await server.app.prisma.cycleCountBatch.count();
    const bProduct = await createProduct(server, b.key, `BAT-B-${n++}`);
    const bUser = await b.userWith('MANAGER');
    const cases: [unknown, string][] = [
      [{ locationId: b.warehouse.id, productMasterIds: [p1] }, 'locationId'],
      [{ locationId: location.id, productMasterIds: [bProduct] }, 'productMasterIds.0'],
      [{ locationId: location.id, productMasterIds: [p1], assigneeId: bUser.id }, 'assigneeId'],
      [{ locationId: location.id, productMasterIds: [p1], suggested: 2 }, 'productMasterIds'],
      [{ locationId: location.id }, 'productMasterIds'],
      [{ locationId: location.id, binIds: ['nope'] }, 'binIds.0'],
      [{ locationId: location.id, productMasterIds: [p1], extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await post('/api/inventory/cycle-count', body);
      expect(res.status, field).toBe(400);
      expect(res.body.details[field], JSON.stringify(res.body)).toBeDefined();
    }
    expect(await server.app.prisma.cycleCountBatch.count()).toBe(before);
  });
});

describe('overlapping batches', () => {
  const batchCount = () => server.app.prisma.cycleCountBatch.count();

  it('refuses a batch over a stock line another open batch counts (409 naming the line and the batch), lets other lines be counted at once', async () => {
    const { location, p1, p2 } = await site();
    const bin = await server.app.prisma.bin.findFirstOrThrow({ where: { locationId: location.id, code: 'A-01' } });
    const byBin = (await post('/api/inventory/cycle-count', { locationId: location.id, binIds: [bin.id] })).body;
    // Other stock lines of the location, p1's other line included, can be counted by another batch at the same time.
    const other = await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p2] });
    expect(other.status).toBe(201);
    const before = await batchCount();
    const refused = await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p2, p1] });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('INVALID_STATE');
    expect(refused.body.error).toContain(byBin.id);
    expect(refused.body.details['productMasterIds.1']).toEqual([expect.stringMatching(new RegExp(`product ${p1}, bin A-01\\) is counted in open batch ${byBin.id}`))]);
    expect(refused.body.details['productMasterIds.0']).toEqual([expect.stringContaining(`open batch ${other.body.id}`)]);
    const again = await post('/api/inventory/cycle-count', { locationId: location.id, binIds: [bin.id] });
    expect(again.status).toBe(409);
    expect(Object.keys(again.body.details)).toEqual(['binIds.0']);
    const refusal = await graphqlRefusal(
      server,
      a.key,
      `mutation ($l: ID!, $p: ID!) { createCycleCountBatch(input: { locationId: $l, productMasterIds: [$p] }) { __typename ${REFUSAL} } }`,
      { l: location.id, p: p1 },
    );
    expect(refusal).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
    expect(Object.keys(refusal.details!)).toEqual(['productMasterIds.0']);
    expect(await batchCount()).toBe(before);
    // Cancelled: the line is free again.
    await post(`/api/inventory/cycle-count/${byBin.id}`, { action: 'cancel' });
    expect((await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1] })).status).toBe(201);
  });

  it('a completed batch keeps a line whose variance waits to be resolved; resolving frees it', async () => {
    const { location, p1, lines } = await site();
    const batch = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1] })).body;
    const counts = batch.lines.map((l: any) => ({ lineId: l.id, countedQty: l.stockLineId === lines[0]!.id ? 1 : l.snapshotQty }));
    await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts });
    expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'complete' })).status).toBe(200);
    const refused = await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1] });
    expect(refused.status).toBe(409);
    // Only the line with a variance: the exact one was accepted when the batch completed.
    expect(refused.body.details['productMasterIds.0']).toEqual([expect.stringContaining(`has a variance to resolve in batch ${batch.id}`)]);
    const varied = batch.lines.find((l: any) => l.stockLineId === lines[0]!.id).id;
    expect((await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId: varied, action: 'REJECT' }] })).status).toBe(200);
    expect((await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1] })).status).toBe(201);
  });

  it('refuses a found line another open batch counts', async () => {
    const { location, p1, p2 } = await site();
    const bin = await server.app.prisma.bin.findFirstOrThrow({ where: { locationId: location.id, code: 'A-01' } });
    const byBin = (await post('/api/inventory/cycle-count', { locationId: location.id, binIds: [bin.id] })).body;
    const other = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p2] })).body;
    const found = await post(`/api/inventory/cycle-count/${other.id}`, { action: 'record', counts: [{ productMasterId: p1, binId: bin.id, countedQty: 4 }] });
    expect(found.status).toBe(409);
    expect(found.body.details['counts.0.productMasterId']).toEqual([expect.stringContaining(`open batch ${byBin.id}`)]);
    expect((await get(`/api/inventory/cycle-count/${other.id}`)).body.itemCount).toBe(1);
    // A found line no other batch has is taken.
    const elsewhere = await post(`/api/inventory/cycle-count/${other.id}`, { action: 'record', counts: [{ productMasterId: p2, binId: bin.id, countedQty: 2 }] });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.itemCount).toBe(2);
    const twice = await post(`/api/inventory/cycle-count/${byBin.id}`, { action: 'record', counts: [{ productMasterId: p2, binId: bin.id, countedQty: 2 }] });
    expect(twice.status).toBe(409);
  });

  it('of creates at the same moment over the same lines, one wins and the others are refused', async () => {
    const { location, p1, p2 } = await site();
    const before = await batchCount();
    const answers = await Promise.all([
      post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1] }),
      post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1, p2] }),
      post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p2, p1] }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await batchCount()).toBe(before + 1);
    const lines = await server.app.prisma.cycleCountLine.findMany({ where: { batch: { locationId: location.id, status: 'IN_PROGRESS' } } });
    expect(new Set(lines.map((l) => l.stockLineId)).size).toBe(lines.length);
  });
});

describe('counting', () => {
  it('records counts against on hand at the moment of the count, keeps recounts in the history, adds found lines', async () => {
    const { location, p1, p2, lines } = await site();
    const batch = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1, p2] })).body;
    const lineOf = (stockLineId: string) => batch.lines.find((l: any) => l.stockLineId === stockLineId);
    // A sale during the count: expected follows it.
    await addStock(server.app, a.org.id, { productMasterId: p1, locationId: location.id, binCode: 'A-01' }, { ON_HAND: -1 });
    const bin = await server.app.prisma.bin.create({ data: { organizationId: a.org.id, locationId: location.id, code: `F-${n++}` } });
    const recorded = await post(`/api/inventory/cycle-count/${batch.id}`, {
      action: 'record',
      counts: [
        { lineId: lineOf(lines[0]!.id).id, countedQty: 2 },
        { productMasterId: p2, countedQty: 3 },
        { productMasterId: p2, binId: bin.id, countedQty: 5 },
      ],
    });
    expect(recorded.status).toBe(200);
    const after = (id: string) => recorded.body.lines.find((l: any) => l.id === id);
    expect(after(lineOf(lines[0]!.id).id)).toMatchObject({ snapshotQty: 4, expectedQty: 3, countedQty: 2, varianceQty: -1, history: [] });
    expect(after(lineOf(lines[2]!.id).id)).toMatchObject({ expectedQty: 3, countedQty: 3, varianceQty: 0 });
    const found = recorded.body.lines.find((l: any) => l.found);
    expect(found).toMatchObject({ productMasterId: p2, binId: bin.id, stockLineId: null, snapshotQty: 0, expectedQty: 0, countedQty: 5 });
    expect(recorded.body.itemCount).toBe(4);

    const recount = await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'RECORD', counts: [{ lineId: lineOf(lines[0]!.id).id, countedQty: 3 }] });
    expect(recount.body.lines.find((l: any) => l.id === lineOf(lines[0]!.id).id)).toMatchObject({ countedQty: 3, varianceQty: 0, history: [{ countedQty: 2, expectedQty: 3 }] });

    expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'complete' })).status).toBe(409);
    await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts: [{ lineId: lineOf(lines[1]!.id).id, countedQty: 6 }] });
    const completed = await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'complete' });
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe('COMPLETED');
    for (const body of [{ action: 'cancel' }, { action: 'complete' }, { action: 'record', counts: [{ lineId: found.id, countedQty: 1 }] }]) {
      const res = await post(`/api/inventory/cycle-count/${batch.id}`, body);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('INVALID_STATE');
    }
    // Counting never changes stock.
    expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: lines[0]!.id } })).qtyOnHand).toBe(3);
  });

  it('takes a lot and a bin by code as well as by id', async () => {
    const { location, p1, p2, lines } = await site();
    const batch = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1] })).body;
    const res = await post(`/api/inventory/cycle-count/${batch.id}`, {
      action: 'record',
      counts: [
        { productMasterId: p1, binCode: 'A-01', countedQty: 3 }, // the snapshot's line in bin A-01
        { productMasterId: p1, lotCode: 'L1', binCode: 'A-01', countedQty: 2 }, // found: lot L1 in bin A-01
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.lines.find((l: any) => l.stockLineId === lines[0]!.id)).toMatchObject({ countedQty: 3, found: false });
    expect(res.body.lines.find((l: any) => l.found)).toMatchObject({ productMasterId: p1, lotCode: 'L1', binCode: 'A-01', countedQty: 2, stockLineId: null });
    for (const [count, field] of [
      [{ productMasterId: p1, lotCode: 'NOPE', countedQty: 1 }, 'counts.0.lotCode'],
      [{ productMasterId: p2, lotCode: 'L1', countedQty: 1 }, 'counts.0.lotCode'], // L1 is p1's lot
      [{ productMasterId: p1, binCode: 'NOPE', countedQty: 1 }, 'counts.0.binCode'],
      [{ productMasterId: p1, lotId: res.body.lines.find((l: any) => l.found).lotId, lotCode: 'L1', countedQty: 1 }, 'counts.0.lotCode'],
    ] as const) {
      const refused = await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts: [count] });
      expect(refused.status, field).toBe(400);
      expect(refused.body.details[field], JSON.stringify(refused.body)).toBeDefined();
    }
    expect((await get(`/api/inventory/cycle-count/${batch.id}`)).body.itemCount).toBe(3);
  });

  it('cancels; refuses bad counts naming them and changes nothing; foreign batches are 404', async () => {
    const { location, p1 } = await site();
    const batch = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1] })).body;
    const bLot = await server.app.prisma.lot.create({ data: { organizationId: b.org.id, productMasterId: await createProduct(server, b.key, `BAT-L-${n++}`), code: 'X' } });
    for (const [counts, field] of [
      [[{ lineId: 'nope', countedQty: 1 }], 'counts.0.lineId'],
      [[{ lineId: batch.lines[0].id, countedQty: 1 }, { productMasterId: p1, lotId: bLot.id, countedQty: 1 }], 'counts.1.lotId'],
      [[{ productMasterId: p1, binId: b.warehouse.id, countedQty: 1 }], 'counts.0.binId'],
      [[{ lineId: batch.lines[0].id, countedQty: -1 }], 'counts.0.countedQty'],
    ] as const) {
      const res = await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts });
      expect(res.status, field).toBe(400);
      expect(res.body.details[field], JSON.stringify(res.body)).toBeDefined();
    }
    expect((await get(`/api/inventory/cycle-count/${batch.id}`)).body.lines.every((l: any) => l.countedQty === null)).toBe(true);
    expect((await get(`/api/inventory/cycle-count/${batch.id}`, b.key)).status).toBe(404);
    expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'cancel' }, b.key)).status).toBe(404);
    expect((await get('/api/inventory/cycle-count/00000000-0000-7000-8000-000000000000')).status).toBe(404);
    const cancelled = await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'cancel' });
    expect(cancelled.body.status).toBe('CANCELLED');
    expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'cancel' })).status).toBe(409);
  });
});

describe('the blind count sheet', () => {
  it('lists what to count of a batch or a location with no quantity anywhere, as JSON and CSV', async () => {
    const { location, p1, lines } = await site();
    const batch = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1] })).body;
    const sheet = await get(`/api/inventory/cycle-count/blind-form?locationId=${location.id}&batchId=${batch.id}`);
    expect(sheet.status).toBe(200);
    expect(sheet.body.batchId).toBe(batch.id);
    expect(sheet.body.lines.map((l: any) => l.lineId).sort()).toEqual(batch.lines.map((l: any) => l.id).sort());
    expect(JSON.stringify(sheet.body)).not.toMatch(/qty|quantity/i);
    const whole = await get(`/api/inventory/cycle-count/blind-form?locationId=${location.id}`);
    expect(whole.body.lines.map((l: any) => l.stockLineId).sort()).toEqual(lines.map((l) => l.id).sort());
    expect(whole.body.pagination).toEqual({ page: 1, pageSize: 500, total: 3, totalPages: 1 });
    expect(JSON.stringify(whole.body)).not.toMatch(/qty|quantity/i);

    const csv = await fetch(`${server.url}/api/inventory/cycle-count/blind-form?locationId=${location.id}&batchId=${batch.id}`, {
      headers: { authorization: `Bearer ${a.key}`, accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = (await csv.text()).trim().split('\r\n');
    expect(rows[0]).toBe('binCode,sku,productName,lotCode,expiryDate,lineId,stockLineId,countedQty');
    expect(rows).toHaveLength(3);
    expect(rows.slice(1).every((row) => row.endsWith(','))).toBe(true);

    const data = await graphqlData(server, a.key, 'query ($l: ID!, $b: ID) { cycleCountBlindForm(locationId: $l, batchId: $b) { total lines { sku binCode lotCode } } }', { l: location.id, b: batch.id });
    expect(data.cycleCountBlindForm.total).toBe(2);

    expect((await get(`/api/inventory/cycle-count/blind-form?locationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await get(`/api/inventory/cycle-count/blind-form?locationId=${location.id}&batchId=${batch.id}`, b.key)).status).toBe(404);
    expect((await get(`/api/inventory/cycle-count/blind-form?locationId=${a.warehouse.id}&batchId=${batch.id}`)).status).toBe(400);
    expect((await get('/api/inventory/cycle-count/blind-form')).status).toBe(400);
    expect((await get(`/api/inventory/cycle-count/blind-form?locationId=${location.id}`, await a.keyWith(['inventory:read']))).status).toBe(403);
  });
});

describe('the batches list (mode batches) and GraphQL', () => {
  it('lists IN_PROGRESS by default, every status with includeCompleted, by assignee', async () => {
    const { location, p1, p2 } = await site();
    const open = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1], assigneeId: a.admin.id })).body;
    const closed = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p2] })).body;
    await post(`/api/inventory/cycle-count/${closed.id}`, { action: 'cancel' });
    const list = await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=batches`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ type: 'batches', count: 1, batches: [{ id: open.id, locationId: location.id, status: 'IN_PROGRESS', assigneeId: a.admin.id, itemCount: 2 }] });
    expect(Object.keys(list.body.batches[0]).sort()).toEqual(['assigneeId', 'createdAt', 'id', 'itemCount', 'locationId', 'status']);
    expect((await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=batches&includeCompleted=true`)).body.count).toBe(2);
    expect((await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=batches&status=cancelled`)).body.batches.map((x: any) => x.id)).toEqual([closed.id]);
    expect((await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=batches&assigneeId=${a.admin.id}&includeCompleted=1`)).body.count).toBe(1);
    const missing = await get('/api/inventory/cycle-count?mode=batches');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/locationId/);
    expect((await get(`/api/inventory/cycle-count?locationId=${b.warehouse.id}&mode=batches`)).status).toBe(404);

    const data = await graphqlData(
      server,
      a.key,
      `query ($l: ID!, $id: ID!) {
        cycleCountBatches(locationId: $l, includeCompleted: true, first: 10) { totalCount edges { node { id status lines { sku product { id } stockLine { id } } } } }
        node(id: $id) { ... on CycleCountBatch { id itemCount } }
      }`,
      { l: location.id, id: open.id },
    );
    expect(data.cycleCountBatches.totalCount).toBe(2);
    expect(data.node).toEqual({ id: open.id, itemCount: 2 });
    const foreign = await graphqlData(server, b.key, 'query ($id: ID!) { cycleCountBatch(id: $id) { id } node(id: $id) { id } }', { id: open.id });
    expect(foreign).toEqual({ cycleCountBatch: null, node: null });
    const refusal = await graphqlRefusal(
      server,
      a.key,
      `mutation ($id: ID!) { updateCycleCountBatch(id: $id, input: { action: "CANCEL" }) { __typename ${REFUSAL} } }`,
      { id: closed.id },
    );
    expect(refusal.code).toBe('INVALID_STATE');
  });

  it('answers 401 without credentials and 403 without inventory.cyclecount', async () => {
    const reader = await a.keyWith(['inventory:read']);
    const { location, p1 } = await site();
    const batch = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1] })).body;
    const paths: [string, string, unknown?][] = [
      ['POST', '/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [p1] }],
      ['GET', `/api/inventory/cycle-count/${batch.id}`],
      ['POST', `/api/inventory/cycle-count/${batch.id}`, { action: 'cancel' }],
      ['GET', `/api/inventory/cycle-count?locationId=${location.id}&mode=batches`],
    ];
    for (const [method, path, body] of paths) {
      expect((await server.call(method as 'GET', path, { body })).status, path).toBe(401);
      expect((await server.call(method as 'GET', path, { token: reader, body })).status, path).toBe(403);
    }
    expect((await get(`/api/inventory/cycle-count/${batch.id}`)).body.status).toBe('IN_PROGRESS');
  });
});
