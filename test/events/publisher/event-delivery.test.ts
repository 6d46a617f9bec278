import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorContext } from '../../../src/context.js';
import type { PublishedEvent } from '../../../src/services/events/publisher/published-event.js';
import { publishBatch } from '../../../src/services/events/publisher/publish-batch.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import { wsConnection } from '../../support/graphql-ws.js';
import { type ServerProcess, startServerProcess } from '../../support/processes.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { streams } from '../stock-changes/stock-changed-support.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// Delivery across instances on one PostgreSQL (docs/events.md): instance A (this process, publishing nothing)
// serves the subscriptions; instance B (a server process) publishes. Rows that commit out of id order are
// published in order and none is skipped; a publisher killed with SIGKILL loses nothing.
const pgOnly = !process.env.TEST_DATABASE_URL;

let server: TestServer;
let a: Tenant;
let b: Tenant;
let productA: string;
let productB: string;
let publisher: ServerProcess | undefined;

const startPublisher = () =>
  startServerProcess({
    DATABASE_URL: server.database.url!,
    DATA_DIR: '',
    EVENT_PUBLISH_POLL_MS: '20',
    IMPORT_WORKERS: '0',
    FORECAST_RUN_WORKERS: '0',
    STOCK_SNAPSHOT_POLL_SECONDS: '0',
    DEMAND_RATE_POLL_SECONDS: '0',
  });

beforeAll(async () => {
  if (pgOnly) return;
  ({ server, a, b } = await startServerWithTwoTenants());
  productA = await createProduct(server, a.key, 'DLV-A');
  productB = await createProduct(server, b.key, 'DLV-B');
});
afterAll(async () => {
  await publisher?.stop();
  await server?.close();
});

const STOCK_CHANGED = `subscription ($locationId: ID) { stockChanged(locationId: $locationId) { eventId stockLineId productId locationId changes { deltaQty qtyAfter } } }`;

async function subscriber(token: string, locationId: string) {
  const ws = wsConnection(server.url);
  await ws.init({ authorization: `Bearer ${token}` });
  const id = await ws.subscribe(STOCK_CHANGED, { locationId });
  return {
    ws,
    change: async (stockLineId: string) =>
      (await ws.message((m) => m.id === id && m.type === 'next' && m.payload.data.stockChanged.stockLineId === stockLineId))?.payload.data.stockChanged,
    sent: () => ws.messages.filter((m) => m.id === id && m.type === 'next').map((m) => m.payload.data.stockChanged),
  };
}

// Starting a server process (tsx) takes seconds on a busy machine.
describe.skipIf(pgOnly)('event delivery on PostgreSQL', { timeout: 120_000 }, () => {
  it('publishes rows that commit out of id order in (txid, id) order, skipping none', async () => {
    const older = new pg.Client({ connectionString: server.database.url });
    const younger = new pg.Client({ connectionString: server.database.url });
    await Promise.all([older.connect(), younger.connect()]);
    const insert = (client: pg.Client, tag: string) =>
      client.query(`INSERT INTO domain_events ("organizationId", type, "subjectId", payload) VALUES ($1, 'import.finished', $2, '{}') RETURNING id`, [a.org.id, tag]);
    const published: PublishedEvent[] = [];
    const channel = { announce: async () => {}, committed: (events: PublishedEvent[]) => void published.push(...events) };
    const ctx = operatorContext(server.app.prisma, 'test');
    try {
      // The older transaction takes its id first, then writes its row after the younger one wrote and committed:
      // its row has the higher id but commits last.
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      const youngerId = (await insert(younger, 'younger')).rows[0].id;
      const olderId = (await insert(older, 'older')).rows[0].id;
      expect(BigInt(olderId) > BigInt(youngerId)).toBe(true);
      // A cursor on ids would publish the younger row now and then never see the older one; this one waits.
      while (await publishBatch(ctx, channel));
      expect(published.filter((e) => e.subjectId === 'younger' || e.subjectId === 'older')).toEqual([]);
      await older.query('COMMIT');
      // Other transactions of the shared cluster may hold the horizon a little longer: publish until both are out.
      while (published.filter((e) => e.subjectId === 'younger' || e.subjectId === 'older').length < 2) {
        if (!(await publishBatch(ctx, channel))) await new Promise((r) => setTimeout(r, 20));
      }
      expect(published.filter((e) => e.subjectId === 'younger' || e.subjectId === 'older').map((e) => e.subjectId)).toEqual(['older', 'younger']);
    } finally {
      await older.query('ROLLBACK').catch(() => {});
      await Promise.all([older.end(), younger.end()]);
    }
  });

  it("delivers a change made through instance B to a subscription on instance A, and never another tenant's", async () => {
    publisher = await startPublisher();
    const sub = await subscriber(a.key, a.warehouse.id);
    await streams(server, 1);
    const lineA = await addStock(server.app, a.org.id, { productMasterId: productA, locationId: a.warehouse.id }, { ON_HAND: 10 });
    await addStock(server.app, b.org.id, { productMasterId: productB, locationId: b.warehouse.id }, { ON_HAND: 10 });
    const adjust = (token: string, inventoryItemId: string, delta: number) =>
      fetch(`${publisher!.baseUrl}/api/inventory/adjust`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ inventoryItemId, delta, reasonCodeId: delta > 0 ? 'FOUND' : 'LOST' }),
      });
    expect((await adjust(a.key, lineA.id, -4)).status).toBe(200);
    // The subscriber sees the receipt (+10, made here, published by B) and then B's adjustment.
    await sub.change(lineA.id);
    await sub.ws.message((m) => m.type === 'next' && m.payload.data.stockChanged.stockLineId === lineA.id && m.payload.data.stockChanged.changes[0].deltaQty === -4);
    expect(sub.sent().filter((c) => c.stockLineId === lineA.id).map((c) => c.changes[0])).toEqual([
      { deltaQty: 10, qtyAfter: 10 },
      { deltaQty: -4, qtyAfter: 6 },
    ]);
    expect(sub.sent().every((c) => c.locationId === a.warehouse.id)).toBe(true);
    sub.ws.close();
    await streams(server, 0);
  });

  it('publishes after a restart what was committed while the publisher was killed (SIGKILL)', async () => {
    publisher ??= await startPublisher();
    await publisher.kill();
    const sub = await subscriber(a.key, a.warehouse.id);
    await streams(server, 1);
    // Committed while no instance publishes (A never does): the row waits in the outbox.
    const line = await addStock(server.app, a.org.id, { productMasterId: productA, locationId: a.warehouse.id, lotCode: 'K1' }, { ON_HAND: 3 });
    const [event] = await server.app.prisma.domainEvent.findMany({ where: { subjectId: line.id } });
    const [cursor] = await server.app.prisma.eventPublisherCursor.findMany();
    expect(event!.id > cursor!.lastId || event!.txid > cursor!.txid).toBe(true);
    publisher = await startPublisher();
    expect(await sub.change(line.id)).toMatchObject({ stockLineId: line.id, changes: [{ deltaQty: 3, qtyAfter: 3 }] });
    sub.ws.close();
    await streams(server, 0);
  });
});
