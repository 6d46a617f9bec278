import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Stock requests, first slice: DRAFT → SUBMITTED → APPROVED | REJECTED, CANCELLED, rollbacks, comments,
// lines and the history, through every REST path; refusals change nothing.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let ward: { id: string };
let products: string[];

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  ward = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WARD1', name: 'Ward 1' });
  products = [await createProduct(server, a.key, 'SR-1'), await createProduct(server, a.key, 'SR-2'), await createProduct(server, a.key, 'SR-3')];
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown, token = a.key) => server.call(method, path, { token, body });
const draftBody = (extra: Record<string, unknown> = {}) => ({
  requestingLocationId: ward.id,
  supplyingLocationId: a.warehouse.id,
  neededBy: '2031-05-01',
  reason: 'Weekly top-up',
  lines: [{ productMasterId: products[0], quantityRequested: 10, unit: 'box' }, { productMasterId: products[1], quantityRequested: 4 }],
  ...extra,
});
const create = async (extra: Record<string, unknown> = {}, token = a.key) => {
  const res = await call('POST', '/api/stock-requests', draftBody(extra), token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; number: number; status: string; lines: { productMasterId: string; quantityApproved: number | null }[] };
};
const post = (id: string, move: string, body: unknown = {}, token = a.key) => call('POST', `/api/stock-requests/${id}/${move}`, body, token);
/** The request's row, lines and history as stored: what a refusal must leave as it was. */
const stored = async (id: string) => ({
  request: await server.app.prisma.stockRequest.findUnique({ where: { id } }),
  lines: await server.app.prisma.stockRequestLine.findMany({ where: { requestId: id }, orderBy: { productMasterId: 'asc' } }),
  events: await server.app.prisma.stockRequestEvent.count({ where: { requestId: id } }),
});
const refusedUnchanged = async (id: string, send: () => Promise<{ status: number; body: any }>, status: number, code?: string) => {
  const before = await stored(id);
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (code) expect(res.body.code).toBe(code);
  expect(await stored(id)).toEqual(before);
  return res.body;
};

describe('stock request workflow', () => {
  it('creates a numbered DRAFT with lines, edits it, submits, approves by line and keeps the history', async () => {
    const first = await create();
    expect(first).toMatchObject({ status: 'DRAFT', priority: 'NORMAL', reason: 'Weekly top-up', neededBy: '2031-05-01', requestingLocationId: ward.id });
    expect(first.lines.map((l) => [l.productMasterId, (l as any).quantityRequested, l.quantityApproved, (l as any).unit])).toEqual([
      [products[0], 10, null, 'box'],
      [products[1], 4, null, null],
    ]);
    const second = await create();
    expect(second.number).toBe(first.number + 1);
    expect((second as any).reference).toBe(`SR-${String(second.number).padStart(6, '0')}`);

    const patched = await call('PATCH', `/api/stock-requests/${first.id}`, { priority: 'URGENT', neededBy: '2031-04-01' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ priority: 'URGENT', neededBy: '2031-04-01', reason: 'Weekly top-up' });
    const added = await post(first.id, 'lines', { lines: [{ productMasterId: products[2], quantityRequested: 3 }, { productMasterId: products[1], quantityRequested: 6 }] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.lines.map((l: any) => [l.productMasterId, l.quantityRequested])).toEqual([[products[0], 10], [products[1], 6], [products[2], 3]]);
    const lines = await call('GET', `/api/stock-requests/${first.id}/lines`);
    expect(lines.body).toMatchObject({ id: first.id, status: 'DRAFT' });
    expect(lines.body.data).toEqual(added.body.lines);

    expect((await post(first.id, 'submit', { note: 'please' })).body.status).toBe('SUBMITTED');
    const proposed = await post(first.id, 'lines', { lines: [{ productMasterId: products[1], quantityApproved: 2 }] });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    const approved = await post(first.id, 'approve', { lines: [{ productMasterId: products[2], quantityApproved: 0 }], note: 'ok' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.status).toBe('APPROVED');
    expect(approved.body.approvedBy).toEqual(expect.any(String));
    expect(approved.body.lines.map((l: any) => l.quantityApproved)).toEqual([10, 2, 0]);

    await post(first.id, 'comment', { note: 'Picked tomorrow' });
    const history = await call('GET', `/api/stock-requests/${first.id}/status`);
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(history.body).toMatchObject({ id: first.id, status: 'APPROVED', total: 6 });
    expect(history.body.data.map((e: any) => [e.kind, e.fromStatus, e.toStatus, e.note])).toEqual([
      ['CREATED', null, 'DRAFT', null],
      ['LINES', null, null, '2 line(s) added or changed'],
      ['STATUS', 'DRAFT', 'SUBMITTED', 'please'],
      ['LINES', null, null, '1 line(s) given approved quantities'],
      ['STATUS', 'SUBMITTED', 'APPROVED', 'ok'],
      ['COMMENT', null, null, 'Picked tomorrow'],
    ]);
    const page = await call('GET', `/api/stock-requests/${first.id}/status?limit=2&offset=4`);
    expect(page.body.data.map((e: any) => e.kind)).toEqual(['STATUS', 'COMMENT']);
  });

  it('rolls back APPROVED → SUBMITTED (approval undone, quantities kept) and SUBMITTED → DRAFT (approved quantities cleared)', async () => {
    const request = await create();
    await post(request.id, 'submit');
    await post(request.id, 'approve', { lines: [{ productMasterId: products[0], quantityApproved: 7 }] });
    const back = await post(request.id, 'rollback', { note: 'wrong ward' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ status: 'SUBMITTED', approvedAt: null, approvedBy: null });
    expect(back.body.lines.map((l: any) => l.quantityApproved)).toEqual([7, 4]);
    const draft = await post(request.id, 'rollback');
    expect(draft.body).toMatchObject({ status: 'DRAFT', submittedAt: null });
    expect(draft.body.lines.map((l: any) => l.quantityApproved)).toEqual([null, null]);
    const history = (await call('GET', `/api/stock-requests/${request.id}/status`)).body.data;
    expect(history.filter((e: any) => e.kind === 'ROLLBACK').map((e: any) => [e.fromStatus, e.toStatus])).toEqual([['APPROVED', 'SUBMITTED'], ['SUBMITTED', 'DRAFT']]);
    await refusedUnchanged(request.id, () => post(request.id, 'rollback'), 409, 'INVALID_STATE');
  });

  it('POST /status makes the same moves: submit, approve, reject (note required), cancel', async () => {
    const one = await create();
    expect((await post(one.id, 'status', { status: 'SUBMITTED' })).body.status).toBe('SUBMITTED');
    expect((await post(one.id, 'status', { status: 'APPROVED' })).body.lines.map((l: any) => l.quantityApproved)).toEqual([10, 4]);
    expect((await post(one.id, 'status', { status: 'CANCELLED', note: 'not needed' })).body).toMatchObject({ status: 'CANCELLED', cancelledBy: expect.any(String) });
    const two = await create();
    await post(two.id, 'status', { status: 'SUBMITTED' });
    const body = await refusedUnchanged(two.id, () => post(two.id, 'status', { status: 'REJECTED' }), 400);
    expect(Object.keys(body.details)).toEqual(['note']);
    expect((await post(two.id, 'status', { status: 'REJECTED', note: 'no budget' })).body).toMatchObject({ status: 'REJECTED', rejectionReason: 'no budget' });
    await refusedUnchanged(two.id, () => post(two.id, 'status', { status: 'FULFILLED' }), 409, 'INVALID_STATE');
    await refusedUnchanged(two.id, () => post(two.id, 'status', { status: 'DRAFT' }), 400);
  });

  it('every illegal move is 409 INVALID_STATE naming the state, and changes nothing', async () => {
    const moves: [string, string, unknown][] = [
      ['POST', 'submit', {}],
      ['POST', 'approve', {}],
      ['POST', 'reject', { reason: 'x' }],
      ['POST', 'rollback', {}],
      ['POST', 'status', { status: 'CANCELLED' }],
      ['PATCH', '', { priority: 'LOW' }],
      ['DELETE', '', undefined],
      ['POST', 'lines', { lines: [{ productMasterId: products[0], quantityApproved: 1 }] }],
    ];
    const legal: Record<string, string[]> = {
      DRAFT: ['submit', 'status', 'PATCH', 'DELETE', 'lines'],
      SUBMITTED: ['approve', 'reject', 'rollback', 'status', 'lines'],
      APPROVED: ['rollback', 'status'],
      REJECTED: [],
      CANCELLED: [],
    };
    const reach: Record<string, (id: string) => Promise<unknown>> = {
      DRAFT: async () => {},
      SUBMITTED: (id) => post(id, 'submit'),
      APPROVED: async (id) => (await post(id, 'submit'), post(id, 'approve')),
      REJECTED: async (id) => (await post(id, 'submit'), post(id, 'reject', { reason: 'no' })),
      CANCELLED: (id) => post(id, 'status', { status: 'CANCELLED' }),
    };
    for (const [state, allowed] of Object.entries(legal)) {
      for (const [method, move, body] of moves) {
        const name = move || method;
        if (allowed.includes(name)) continue;
        const { id } = await create();
        await reach[state]!(id);
        const res = await refusedUnchanged(id, () => call(method, `/api/stock-requests/${id}${move ? `/${move}` : ''}`, body), 409, 'INVALID_STATE');
        expect(res.error, `${name} from ${state}`).toContain(`is ${state}`);
      }
    }
  });

  it('DELETE removes a DRAFT with its lines and history', async () => {
    const { id } = await create();
    const res = await call('DELETE', `/api/stock-requests/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe(id);
    expect(await stored(id)).toEqual({ request: null, lines: [], events: 0 });
    expect((await call('GET', `/api/stock-requests/${id}`)).status).toBe(404);
  });

  it('refuses bad bodies with 400 naming the field (unknown fields too), unknown ids with 404, changing nothing', async () => {
    const { id } = await create();
    const bad: [Record<string, unknown>, string][] = [
      [{ supplyingLocationId: ward.id }, 'supplyingLocationId'],
      [{ neededBy: '2031-02-30' }, 'neededBy'],
      [{ priority: 'SOON' }, 'priority'],
      [{ reason: 'x'.repeat(1001) }, 'reason'],
      [{ lines: [] }, 'lines'],
      [{ lines: [{ productMasterId: products[0], quantityRequested: 0 }] }, 'lines.0.quantityRequested'],
      [{ lines: [{ productMasterId: products[0], quantityRequested: 2_147_483_648 }] }, 'lines.0.quantityRequested'],
      [{ lines: [{ productMasterId: products[0], quantityRequested: 1 }, { productMasterId: products[0], quantityRequested: 2 }] }, 'lines.1.productMasterId'],
      [{ lines: [{ productMasterId: products[0], quantityRequested: 1, unit: 'u'.repeat(51) }] }, 'lines.0.unit'],
      [{ colour: 'red' }, 'colour'],
    ];
    const count = await server.app.prisma.stockRequest.count({ where: { organizationId: a.org.id } });
    for (const [extra, field] of bad) {
      const res = await call('POST', '/api/stock-requests', draftBody(extra));
      expect(res.status, JSON.stringify([extra, res.body])).toBe(400);
      expect(Object.keys(res.body.details ?? {}), JSON.stringify(res.body)).toContain(field);
    }
    expect((await call('POST', '/api/stock-requests', draftBody({ requestingLocationId: b.warehouse.id }))).status).toBe(404);
    expect((await call('POST', '/api/stock-requests', draftBody({ lines: [{ productMasterId: 'nope', quantityRequested: 1 }] }))).status).toBe(404);
    expect(await server.app.prisma.stockRequest.count({ where: { organizationId: a.org.id } })).toBe(count);

    await refusedUnchanged(id, () => call('PATCH', `/api/stock-requests/${id}`, { supplyingLocationId: ward.id }), 400);
    await refusedUnchanged(id, () => call('PATCH', `/api/stock-requests/${id}`, { id: 'x' }), 400);
    await refusedUnchanged(id, () => post(id, 'lines', { lines: [{ productMasterId: products[0], quantityApproved: 1 }] }), 400);
    await refusedUnchanged(id, () => post(id, 'comment', { note: '  ' }), 400);
    await refusedUnchanged(id, () => post(id, 'submit', { note: 'n'.repeat(2001) }), 400);
    await post(id, 'submit');
    await refusedUnchanged(id, () => post(id, 'reject', {}), 400);
    await refusedUnchanged(id, () => post(id, 'approve', { lines: [{ productMasterId: products[0], quantityApproved: 11 }] }), 400);
    await refusedUnchanged(id, () => post(id, 'approve', { lines: [{ productMasterId: products[2], quantityApproved: 1 }] }), 404);
    await refusedUnchanged(id, () => post(id, 'lines', { lines: [{ productMasterId: products[0], quantityRequested: 1 }] }), 400);
    for (const query of ['status=LOST', 'priority=SOON', 'limit=0', 'limit=101', 'offset=-1', `search=${'s'.repeat(201)}`, 'colour=red']) {
      expect((await call('GET', `/api/stock-requests?${query}`)).status, query).toBe(400);
    }
    expect((await call('GET', `/api/stock-requests/${id}/status?limit=501`)).status).toBe(400);
  });

  it('lists with filters, search and paging', async () => {
    const other = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WARD2', name: 'Ward 2' });
    const low = await create({ requestingLocationId: other.id, priority: 'LOW', reason: 'Theatre restock' });
    const high = await create({ requestingLocationId: other.id, priority: 'HIGH', reason: 'Night shift' });
    await post(high.id, 'submit');
    const ids = async (query: string) => {
      const res = await call('GET', `/api/stock-requests?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((r: any) => r.id);
    };
    expect(await ids(`requestingLocationId=${other.id}`)).toEqual([high.id, low.id]);
    expect(await ids(`requestingLocationId=${other.id}&status=submitted`)).toEqual([high.id]);
    expect(await ids(`requestingLocationId=${other.id}&priority=low,normal`)).toEqual([low.id]);
    expect(await ids(`requestingLocationId=${other.id}&search=theatre`)).toEqual([low.id]);
    expect(await ids(`search=SR-${String(high.number).padStart(6, '0')}`)).toEqual([high.id]);
    expect(await ids(`supplyingLocationId=${ward.id}`)).toEqual([]);
    const page = await call('GET', `/api/stock-requests?requestingLocationId=${other.id}&limit=1&offset=1`);
    expect(page.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.body.data.map((r: any) => r.id)).toEqual([low.id]);
    expect((await call('GET', `/api/stock-requests?requestingLocationId=${b.warehouse.id}`)).status).toBe(404);
  });
});

describe('tenant isolation', () => {
  it("another organization's request is 404 on every path, and unchanged", async () => {
    const theirs = await create();
    const paths: [string, string, unknown][] = [
      ['GET', '', undefined],
      ['PATCH', '', { priority: 'LOW' }],
      ['DELETE', '', undefined],
      ['POST', '/submit', {}],
      ['POST', '/approve', {}],
      ['POST', '/reject', { reason: 'x' }],
      ['POST', '/comment', { note: 'x' }],
      ['GET', '/status', undefined],
      ['POST', '/status', { status: 'CANCELLED' }],
      ['POST', '/rollback', {}],
      ['GET', '/lines', undefined],
      ['POST', '/lines', { lines: [{ productMasterId: products[0], quantityRequested: 1 }] }],
    ];
    for (const [method, suffix, body] of paths) {
      await refusedUnchanged(theirs.id, () => call(method, `/api/stock-requests/${theirs.id}${suffix}`, body, b.key), 404);
      expect((await call(method, `/api/stock-requests/00000000-0000-7000-8000-000000000000${suffix}`, body)).status, `${method} ${suffix}`).toBe(404);
    }
    expect((await call('GET', '/api/stock-requests', undefined, b.key)).body.data.map((r: any) => r.id)).not.toContain(theirs.id);
  });
});
