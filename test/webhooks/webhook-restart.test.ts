import { afterAll, describe, expect, it } from 'vitest';
import { databaseForProcesses, freePort, runEntry, type ServerProcess, startServerProcess } from '../support/processes.js';
import { startReceiver } from './webhook-receiver.js';

// A delivery survives kill -9 (docs/webhooks.md): a server process commits a change while the receiver is down,
// fans it out and fails its first attempt; it is killed with SIGKILL; a new process on the same database
// delivers the event to the receiver exactly once (by Webhook-Id). On PGlite (one process at a time on the
// data folder) and on PostgreSQL.
const database = databaseForProcesses();
let server: ServerProcess | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

async function cli(args: string[]) {
  const run = await runEntry('src/cli/admin.ts', args, database.env());
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trimEnd().split('\n').at(-1)!);
}

const start = () =>
  startServerProcess({
    ...database.env(),
    IMPORT_WORKERS: '0',
    FORECAST_RUN_WORKERS: '0',
    STOCK_SNAPSHOT_POLL_SECONDS: '0',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_RETRY_MAX_MS: '400',
  });

describe('webhook delivery across a kill -9', { timeout: 240_000 }, () => {
  it('delivers a change committed before the kill once, after the restart', async () => {
    const { organizationId } = await cli(['create-org', '--name', 'Hooks']);
    const { key } = await cli(['create-api-key', '--org', organizationId, '--name', 'all', '--scopes', '*']);
    const { locationId } = await cli(['create-location', '--org', organizationId, '--code', 'WH1', '--name', 'Main']);
    const port = await freePort();
    server = await start();
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(server!.baseUrl + path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const endpoint = await call('POST', '/api/webhooks/endpoints', { url: `http://127.0.0.1:${port}/hook`, eventTypes: ['stock.changed'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const product = await call('POST', '/api/products', { sku: 'K9', name: 'Kill nine' });
    const received = await call('POST', '/api/inventory/record-stock', { lines: [{ productMasterId: product.body.id, locationId, quantity: 7 }] });
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    const stockLineId = received.body.lines[0].id as string;

    // Committed, fanned out, and its first attempt failed (nothing listens on the port): then kill -9.
    let deliveries: any[] = [];
    while (!deliveries.some((d) => d.attempts.length > 0)) {
      deliveries = (await call('GET', `/api/webhooks/endpoints/${endpoint.body.id}/deliveries`)).body.data;
      if (!deliveries.length) await new Promise((r) => setTimeout(r, 20));
    }
    await server.kill();
    const [delivery] = deliveries;
    expect(delivery).toMatchObject({ status: 'PENDING', eventType: 'stock.changed' });
    expect(delivery.attempts[0].statusCode).toBeNull();

    receiver = await startReceiver(port);
    server = await start();
    const got = await receiver.until((all) => all.some((r) => r.id === delivery.id));
    // Delivered: no attempt can follow (the delivery is DELIVERED), so what the receiver has is all it gets.
    for (;;) {
      const now = (await call('GET', `/api/webhooks/endpoints/${endpoint.body.id}/deliveries/${delivery.id}`)).body;
      if (now.status === 'DELIVERED') {
        expect(now.attempts.at(-1).statusCode).toBe(200);
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(got.filter((r) => r.id === delivery.id)).toHaveLength(1);
    expect(got.find((r) => r.id === delivery.id)!.json).toMatchObject({ type: 'stock.changed', organizationId, data: { stockLineId, changes: [{ deltaQty: 7 }] } });
    await server.stop();
    server = undefined;
  });
});
