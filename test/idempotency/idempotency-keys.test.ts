import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Idempotency-Key on POST (docs/idempotency.md), REST and GraphQL, on both databases: a retry answers what the
// first request answered without doing the work again; a key in use is 409, a key sent with another request 422;
// keys are the organization's, sealed at rest, and expire.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let productId: string;
let n = 0;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  productId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'IDEM-1', name: 'Kept once' } })).body.id;
});
afterAll(() => server?.close());

const freshLine = (qty = 10) => addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: `I${n++}` }, { ON_HAND: qty });
const adjustBy = (body: unknown, key: string | null, token = a.key) =>
  server.call('POST', '/api/inventory/adjust', { token, body, headers: key === null ? {} : { 'idempotency-key': key } });
const onHand = async (id: string) => (await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id } })).qtyOnHand;
const ledgerRows = (stockLineId: string) => server.app.prisma.stockTransaction.count({ where: { stockLineId } });
const keyRow = (organizationId: string) => server.app.prisma.idempotencyKey.findMany({ where: { organizationId } });

describe('Idempotency-Key on REST', () => {
  it('answers a retry with the first answer, status and body, marked replayed, and does the work once', async () => {
    const line = await freshLine();
    const before = await ledgerRows(line.id);
    const key = randomUUID();
    const body = { inventoryItemId: line.id, delta: 3, reasonCodeId: 'FOUND' };
    const first = await adjustBy(body, key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same request again, its fields in another order: the same request.
    const again = await adjustBy({ reasonCodeId: 'FOUND', delta: 3, inventoryItemId: line.id }, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    // Each answer has its own request id.
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await onHand(line.id)).toBe(13);
    expect(await ledgerRows(line.id)).toBe(before + 1);
    // Without a key the same body is a new request.
    expect((await adjustBy(body, null)).status).toBe(200);
    expect(await onHand(line.id)).toBe(16);
  });

  it('keeps a refusal too: the retry gets the same 4xx (with its own request id) and nothing is applied', async () => {
    const line = await freshLine(2);
    const key = randomUUID();
    const first = await adjustBy({ inventoryItemId: line.id, delta: -5, reasonCodeId: 'LOST' }, key);
    expect(first.status).toBe(400);
    expect(first.body.code).toBe('INSUFFICIENT_STOCK');
    // Stock arrives meanwhile: the retry still answers what the first request got (Stripe's rule), not a new run.
    await adjustBy({ inventoryItemId: line.id, delta: 10, reasonCodeId: 'FOUND' }, null);
    const again = await adjustBy({ inventoryItemId: line.id, delta: -5, reasonCodeId: 'LOST' }, key);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await onHand(line.id)).toBe(12);
  });

  it('refuses the key with another body, path or caller (422) and never replays it to them', async () => {
    const line = await freshLine();
    const key = randomUUID();
    expect((await adjustBy({ inventoryItemId: line.id, delta: 1, reasonCodeId: 'FOUND' }, key)).status).toBe(200);
    const otherBody = await adjustBy({ inventoryItemId: line.id, delta: 2, reasonCodeId: 'FOUND' }, key);
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({ error: expect.stringContaining('another request'), code: 'IDEMPOTENCY_KEY_MISMATCH' });
    const otherPath = await server.call('POST', '/api/products', { token: a.key, body: { sku: 'IDEM-X', name: 'x' }, headers: { 'idempotency-key': key } });
    expect(otherPath.status).toBe(422);
    // Another API key of the same organization is another caller.
    const otherKey = await a.keyWith(['inventory:write', 'inventory:read']);
    const otherCaller = await adjustBy({ inventoryItemId: line.id, delta: 1, reasonCodeId: 'FOUND' }, key, otherKey);
    expect(otherCaller.status).toBe(422);
    expect(await onHand(line.id)).toBe(11);
    // Another organization's same key is its own: its request runs (and finds no such line of its own).
    const theirs = await adjustBy({ inventoryItemId: line.id, delta: 1, reasonCodeId: 'FOUND' }, key, b.key);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(400);
    expect(theirs.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { inventoryItemId: ['Inventory item not found'] } });
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await onHand(line.id)).toBe(11);
  });

  it('refuses a malformed key with 400 before doing anything', async () => {
    const line = await freshLine();
    for (const key of ['x'.repeat(256), 'has space', 'tab\there', 'é']) {
      const res = await server.call('POST', '/api/inventory/adjust', {
        token: a.key, body: { inventoryItemId: line.id, delta: 1, reasonCodeId: 'FOUND' }, headers: { 'idempotency-key': Buffer.from(key, 'utf8').toString('latin1') },
      });
      expect(res.status, key).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { 'Idempotency-Key': [expect.any(String)] } });
    }
    expect(await onHand(line.id)).toBe(10);
  });

  it('ignores the key on methods other than POST and on requests without credentials', async () => {
    const key = randomUUID();
    const listed = await server.call('GET', '/api/products?limit=1', { token: a.key, headers: { 'idempotency-key': key } });
    expect(listed.status).toBe(200);
    const signIn = await server.call('POST', '/api/auth/sign-in', { body: { email: a.admin.email, password: a.admin.password }, headers: { 'idempotency-key': key } });
    expect(signIn.status).toBe(200);
    expect(await keyRow(a.org.id).then((rows) => rows.length)).toBeGreaterThan(0);
    // Neither of the two left a key of its own: a POST with this key still runs.
    const line = await freshLine();
    expect((await adjustBy({ inventoryItemId: line.id, delta: 1, reasonCodeId: 'FOUND' }, key)).headers.get('idempotent-replayed')).toBeNull();
    expect(await onHand(line.id)).toBe(11);
  });

  it('under 20 concurrent requests with one key: one effect; the others get its answer or 409 with Retry-After', async () => {
    const line = await freshLine();
    const before = await ledgerRows(line.id);
    const key = randomUUID();
    const body = { inventoryItemId: line.id, delta: 1, reasonCodeId: 'FOUND' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => adjustBy(body, key)));
    expect(await onHand(line.id)).toBe(11);
    expect(await ledgerRows(line.id)).toBe(before + 1);
    const done = answers.filter((r) => r.status === 200);
    const busy = answers.filter((r) => r.status === 409);
    expect(done.length + busy.length).toBe(20);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(done.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const r of done) expect(r.body).toEqual(done[0]!.body);
    for (const r of busy) {
      expect(r.body).toEqual({ error: expect.any(String), code: 'IDEMPOTENCY_KEY_IN_USE', retryAfter: 1 });
      expect(r.headers.get('retry-after')).toBe('1');
    }
    // Once the first has answered, every retry gets its answer.
    const retry = await adjustBy(body, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(done[0]!.body);
    expect(await onHand(line.id)).toBe(11);
  });

  it('lets a retry take over a key whose first request stopped holding it (its process died), and runs it again after expiry', async () => {
    const line = await freshLine();
    const key = randomUUID();
    const body = { inventoryItemId: line.id, delta: 1, reasonCodeId: 'FOUND' };
    expect((await adjustBy(body, key)).status).toBe(200);
    const [row] = (await keyRow(a.org.id)).filter((r) => r.responseStatus === 200 && r.lockedUntil === null).sort((x, y) => +y.createdAt - +x.createdAt);
    // As a process that died mid-request leaves it: no answer, held until a time.
    await server.app.prisma.idempotencyKey.update({ where: { organizationId_keyHash: { organizationId: a.org.id, keyHash: row!.keyHash } }, data: { responseStatus: null, response: null, lockedUntil: new Date(Date.now() + 60_000) } });
    expect((await adjustBy(body, key)).status).toBe(409);
    await server.app.prisma.idempotencyKey.update({ where: { organizationId_keyHash: { organizationId: a.org.id, keyHash: row!.keyHash } }, data: { lockedUntil: new Date(Date.now() - 1000) } });
    // Another request cannot take it over (it is another request: 422); the same one can.
    expect((await adjustBy({ ...body, delta: 2 }, key)).status).toBe(422);
    const taken = await adjustBy(body, key);
    expect(taken.status).toBe(200);
    expect(taken.headers.get('idempotent-replayed')).toBeNull();
    expect(await onHand(line.id)).toBe(12);
    expect((await adjustBy(body, key)).headers.get('idempotent-replayed')).toBe('true');
    // Past its expiry a key is new again, even with another request.
    await server.app.prisma.idempotencyKey.update({ where: { organizationId_keyHash: { organizationId: a.org.id, keyHash: row!.keyHash } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const fresh = await adjustBy({ ...body, delta: 5 }, key);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(await onHand(line.id)).toBe(17);
  });

  it('keeps answers sealed: a new API key replays to the caller, and neither it nor the Idempotency-Key is stored readable', async () => {
    const token = (await server.call('POST', '/api/auth/sign-in', { body: { email: a.admin.email, password: a.admin.password } })).body.token as string;
    const key = `retry-${randomUUID()}`;
    const create = () => server.call('POST', '/api/admin/api-keys', { token, body: { name: 'Sealed', scopes: ['inventory:read'] }, headers: { 'idempotency-key': key } });
    const first = await create();
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await create();
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await server.app.prisma.apiKey.count({ where: { organizationId: a.org.id, name: 'Sealed' } })).toBe(1);
    const rows = await server.app.prisma.$queryRawUnsafe<{ everything: string }[]>(
      `SELECT encode(convert_to(row_to_json(k)::text, 'UTF8'), 'escape') AS everything FROM idempotency_keys k WHERE "organizationId" = $1`, a.org.id);
    const stored = rows.map((r) => r.everything).join('\n');
    expect(stored).not.toContain(first.body.key);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain('Sealed');
  });
});

describe('Idempotency-Key on GraphQL', () => {
  const ADJUST = `mutation ($input: StockDeltaAdjustmentInput!) { adjustStockBy(input: $input) { __typename ... on StockAdjustmentResult { transaction { deltaQty qtyAfter } } } }`;

  it('replays a mutation with the same key and body, and refuses the key on REST (another path)', async () => {
    const line = await freshLine();
    const key = randomUUID();
    const post = (delta: number) =>
      fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ query: ADJUST, variables: { input: { inventoryItemId: line.id, delta, reasonCodeId: 'FOUND' } } }),
      });
    const first = await post(4);
    const firstBody = await first.json();
    expect(first.status, JSON.stringify(firstBody)).toBe(200);
    expect(firstBody.errors).toBeUndefined();
    const again = await post(4);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    expect(await onHand(line.id)).toBe(14);
    const other = await post(5);
    expect(other.status).toBe(422);
    expect((await other.json()).errors[0].extensions.code).toBe('IDEMPOTENCY_KEY_MISMATCH');
    expect((await adjustBy({ inventoryItemId: line.id, delta: 4, reasonCodeId: 'FOUND' }, key)).status).toBe(422);
    expect(await onHand(line.id)).toBe(14);
  });
});

describe('Idempotency-Key in OpenAPI', () => {
  it('is a header of every authenticated POST, with its 409 and 422, and of no other operation', async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).body;
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    const keyed = operations.filter(({ op }) => (op.parameters ?? []).some((p: { name: string; in: string }) => p.name === 'Idempotency-Key' && p.in === 'header'));
    const expected = operations.filter(({ method, op }) => method === 'post' && !(Array.isArray(op.security) && op.security.length === 0));
    expect(keyed.map((o) => `${o.method} ${o.path}`).sort()).toEqual(expected.map((o) => `${o.method} ${o.path}`).sort());
    expect(keyed.length).toBeGreaterThan(50);
    for (const { op } of keyed) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']));
    expect(doc.paths['/auth/sign-in'].post.parameters ?? []).not.toContainEqual(expect.objectContaining({ name: 'Idempotency-Key' }));
    expect(doc.paths['/inventory/adjust'].post.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UnprocessableError' });
  });
});

describe('the expired keys sweep', () => {
  it('deletes expired keys (every IDEMPOTENCY_SWEEP_SECONDS) and leaves the others', async () => {
    const swept = await startServerWithTwoTenants({ IDEMPOTENCY_SWEEP_SECONDS: '1' });
    try {
      const post = (sku: string, key: string) =>
        swept.server.call('POST', '/api/products', { token: swept.a.key, body: { sku, name: sku }, headers: { 'idempotency-key': key } });
      expect((await post('SWEPT-1', 'sweep-old')).status).toBe(201);
      expect((await post('SWEPT-2', 'sweep-new')).status).toBe(201);
      const rows = () => swept.server.app.prisma.idempotencyKey.findMany({ where: { organizationId: swept.a.org.id }, orderBy: { createdAt: 'asc' } });
      const [old, kept] = await rows();
      await swept.server.app.prisma.idempotencyKey.update({ where: { organizationId_keyHash: { organizationId: swept.a.org.id, keyHash: old!.keyHash } }, data: { expiresAt: new Date(Date.now() - 1000) } });
      while ((await rows()).length > 1) await new Promise((r) => setTimeout(r, 100));
      expect((await rows()).map((r) => r.keyHash)).toEqual([kept!.keyHash]);
      expect((await post('SWEPT-2', 'sweep-new')).headers.get('idempotent-replayed')).toBe('true');
    } finally {
      await swept.server.close();
    }
  });
});
