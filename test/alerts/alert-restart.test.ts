import { afterAll, describe, expect, it } from 'vitest';
import { databaseForProcesses, runEntry, type ServerProcess, startServerProcess } from '../support/processes.js';

// The evaluator loses nothing across kill -9 (docs/alerts.md): a server process that does not evaluate
// (ALERT_POLL_MS=0) commits a stock change below the minimum and is killed with SIGKILL; a new process on the
// same database evaluates the committed change from the alerts cursor and raises one alert. On PGlite (one
// process at a time on the data folder) and on PostgreSQL.
const database = databaseForProcesses();
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
});

async function cli(args: string[]) {
  const run = await runEntry('src/cli/admin.ts', args, database.env());
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trimEnd().split('\n').at(-1)!);
}

const start = (alertPollMs: string) =>
  startServerProcess({ ...database.env(), IMPORT_WORKERS: '0', FORECAST_RUN_WORKERS: '0', STOCK_SNAPSHOT_POLL_SECONDS: '0', EVENT_PUBLISH_POLL_MS: '20', ALERT_POLL_MS: alertPollMs, ALERT_SWEEP_SECONDS: '0' });

describe('alerts across a kill -9', { timeout: 240_000 }, () => {
  it('raises, after the restart, the alert of a change committed before the kill', async () => {
    const { organizationId } = await cli(['create-org', '--name', 'Alerts']);
    const { key } = await cli(['create-api-key', '--org', organizationId, '--name', 'all', '--scopes', '*']);
    const { locationId } = await cli(['create-location', '--org', organizationId, '--code', 'WH1', '--name', 'Main']);
    server = await start('0');
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(server!.baseUrl + path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const rule = await call('POST', '/api/alerts/rules', { kind: 'AVAILABLE_BELOW_MIN' });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const product = await call('POST', '/api/products', { sku: 'K9', name: 'Kill nine' });
    expect((await call('POST', '/api/inventory-levels', { productMasterId: product.body.id, locationId, minQuantity: 10, reorderQuantity: 10, maxQuantity: 100 })).status).toBeLessThan(300);
    const received = await call('POST', '/api/inventory/record-stock', { lines: [{ productMasterId: product.body.id, locationId, quantity: 3 }] });
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    // Committed and not evaluated (this process evaluates nothing): then kill -9.
    expect((await call('GET', '/api/alerts')).body.data).toEqual([]);
    await server.kill();

    server = await start('20');
    let alerts: any[] = [];
    const deadline = Date.now() + 30_000;
    while (!alerts.length) {
      if (Date.now() > deadline) throw new Error('no alert within 30 s of the restart');
      await new Promise((r) => setTimeout(r, 50));
      alerts = (await call('GET', '/api/alerts')).body.data;
    }
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ ruleId: rule.body.id, status: 'OPEN', productId: product.body.id, locationId, details: { available: 3, minQuantity: 10 }, occurrences: 1 });
    await server.stop();
    server = undefined;
  });
});
