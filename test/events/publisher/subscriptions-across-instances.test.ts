import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import { wsConnection } from '../../support/graphql-ws.js';
import { type ServerProcess, startServerProcess } from '../../support/processes.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { streams } from '../stock-changes/stock-changed-support.js';

// The subscriptions that polled their rows now follow the published events (docs/events.md): a change made
// through instance B (a server process, which publishes) reaches a subscriber on instance A (this process,
// which publishes nothing and has no workers). On PostgreSQL: PGlite is one process.
const pgOnly = !process.env.TEST_DATABASE_URL;

let server: TestServer;
let a: Tenant;
let ward: string;
let product: string;
let other: ServerProcess | undefined;

const instanceB = (env: Record<string, string> = {}) =>
  startServerProcess({
    DATABASE_URL: server.database.url!,
    DATA_DIR: '',
    EVENT_PUBLISH_POLL_MS: '20',
    IMPORT_WORKERS: '0',
    FORECAST_RUN_WORKERS: '0',
    STOCK_SNAPSHOT_POLL_SECONDS: '0',
    DEMAND_RATE_POLL_SECONDS: '0',
    ...env,
  });

beforeAll(async () => {
  if (pgOnly) return;
  ({ server, a } = await startServerWithTwoTenants());
  ward = (await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WARD-X', name: 'Ward X' })).id;
  product = await createProduct(server, a.key, 'XI-1');
});
afterAll(async () => {
  await other?.stop();
  await server?.close();
});

async function subscribe(query: string, variables: Record<string, unknown>) {
  const ws = wsConnection(server.url);
  await ws.init({ authorization: `Bearer ${a.key}` });
  const id = await ws.subscribe(query, variables);
  const sent = () => ws.messages.filter((m) => m.id === id && m.type === 'next').map((m) => m.payload.data);
  return { ws, id, sent, completed: () => ws.message((m) => m.id === id && m.type === 'complete') };
}

// Starting a server process (tsx) takes seconds on a busy machine.
describe.skipIf(pgOnly)('subscriptions across instances on PostgreSQL', { timeout: 120_000 }, () => {
  it("stockRequestStatusChanged on A sends the moves made through B, and ends after B's cancel", async () => {
    other = await instanceB();
    const created = await server.call('POST', '/api/stock-requests', {
      token: a.key,
      body: { requestingLocationId: ward, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', lines: [{ productMasterId: product, quantityRequested: 2 }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const requestId = created.body.id as string;
    const sub = await subscribe(`subscription ($id: ID!) { stockRequestStatusChanged(id: $id) { request { status } move { fromStatus toStatus } } }`, { id: requestId });
    await sub.ws.result(sub.id);
    await streams(server, 1);
    const onB = (path: string, body: unknown) =>
      fetch(`${other!.baseUrl}/api/stock-requests/${requestId}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await onB('submit', {})).status).toBe(200);
    expect((await onB('status', { status: 'CANCELLED' })).status).toBe(200);
    await sub.completed();
    // Each move once, in order; the request as it is when the move arrives (both may arrive together: CANCELLED).
    const sent = sub.sent().map((d) => d.stockRequestStatusChanged);
    expect(sent.map((c) => c.move && [c.move.fromStatus, c.move.toStatus])).toEqual([null, ['DRAFT', 'SUBMITTED'], ['SUBMITTED', 'CANCELLED']]);
    expect(sent[0].request.status).toBe('DRAFT');
    expect(sent.at(-1).request.status).toBe('CANCELLED');
    await streams(server, 0);
    sub.ws.close();
  });

  it("importJobProgress on A follows a job B's worker applies, to COMPLETED", async () => {
    // Accepted on A, which has no workers: PENDING until B (started after the subscription) takes it.
    await other?.stop();
    const accepted = await server.call('POST', '/api/import/catalog', { token: a.key, body: Array.from({ length: 3 }, (_, i) => ({ externalId: `XI-IMP-${i}`, name: `X ${i}` })) });
    expect(accepted.status).toBe(202);
    const sub = await subscribe(`subscription ($id: ID!) { importJobProgress(id: $id) { state processedRows } }`, { id: accepted.body.jobId });
    expect((await sub.ws.result(sub.id)).payload.data.importJobProgress).toEqual({ state: 'PENDING', processedRows: 0 });
    await streams(server, 1);
    other = await instanceB({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50' });
    await sub.completed();
    const states = sub.sent().map((d) => d.importJobProgress);
    expect(states.at(-1)).toEqual({ state: 'COMPLETED', processedRows: 3 });
    // PROCESSING may arrive with COMPLETED, then the one re-read shows COMPLETED: never sent twice, never after it.
    expect(states[0]).toEqual({ state: 'PENDING', processedRows: 0 });
    expect(states.filter((s) => s.state === 'COMPLETED')).toHaveLength(1);
    await streams(server, 0);
    sub.ws.close();
  });
});
