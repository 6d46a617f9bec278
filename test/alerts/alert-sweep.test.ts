import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { alertCalls } from './alert-support.js';

// The time rules (docs/alerts.md): the sweep (every second here) raises LOTS_EXPIRING for a lot with units on
// hand that expires within the rule's days, and resolves it once those units are gone; another tenant's rule
// is not raised by a's lots.
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ EVENT_PUBLISH_POLL_MS: '20', ALERT_POLL_MS: '20', ALERT_SWEEP_SECONDS: '1' }));
});
afterAll(() => server?.close());

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('LOTS_EXPIRING', () => {
  it('is raised by the sweep within the threshold, not beyond it, and resolved by SYSTEM when the units are gone', async () => {
    const s = alertCalls(server, a);
    const t = alertCalls(server, b);
    const rule = await s.rule({ kind: 'LOTS_EXPIRING', threshold: 30, severity: 'WARNING' });
    await t.rule({ kind: 'LOTS_EXPIRING', threshold: 30 });
    const productId = await s.product('LOT-1');
    const soon = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'SOON', expiryDate: inDays(5) }, { ON_HAND: 7 });
    await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'LATER', expiryDate: inDays(90) }, { ON_HAND: 7 });

    const [alert] = await s.until(`kind=LOTS_EXPIRING&productId=${productId}`, (alerts) => alerts.length === 1, 'swept');
    expect(alert).toMatchObject({ ruleId: rule.id, status: 'OPEN', subjectType: 'LOT', subjectId: soon.lotId, locationId: a.warehouse.id, details: { quantity: 7, expiryDate: inDays(5), thresholdDays: 30 } });
    // Later sweeps see it again: still one alert, last seen later, the same measure not counted again.
    await s.until(`kind=LOTS_EXPIRING&productId=${productId}`, (alerts) => alerts[0].lastSeenAt > alert.lastSeenAt, 'seen again');
    expect((await s.call('GET', `/api/alerts/${alert.id}`)).body.occurrences).toBe(1);
    expect((await s.call('GET', `/api/alerts?kind=LOTS_EXPIRING&productId=${productId}`)).body.total).toBe(1);

    await s.adjust(soon.id, -7);
    const [resolved] = await s.until(`kind=LOTS_EXPIRING&productId=${productId}`, (alerts) => alerts[0].status === 'RESOLVED', 'resolved');
    expect(resolved).toMatchObject({ id: alert.id, resolvedByType: 'SYSTEM' });
    expect((await t.call('GET', '/api/alerts')).body.data).toEqual([]);
  });
});
