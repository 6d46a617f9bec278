import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { operatorContext } from '../../src/context.js';
import { sweepRetention } from '../../src/services/retention/retention-sweep.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Retention (docs/configuration.md, retention): the outbox rows every cursor has passed and older than
// EVENT_RETENTION_HOURS, finished webhook deliveries (with their attempts) older than WEBHOOK_DELIVERY_RETENTION_DAYS
// and resolved alerts older than ALERT_RETENTION_DAYS go; everything still needed or young stays, in every
// organization. Rows are crafted old through the database; the sweep runs by its entry point, and once by its loop.
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(async () => {
  await server?.close();
});

const settings = { eventHours: 168, webhookDeliveryDays: 30, alertDays: 90 };
const sweep = () => sweepRetention(operatorContext(server.app.prisma, 'test'), settings);
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);

/** An outbox row written `ageMs` ago (its own transaction, so its own txid). */
async function event(tenant: Tenant, ageMs: number): Promise<bigint> {
  const [row] = await server.app.prisma.$queryRaw<{ id: bigint }[]>`
    INSERT INTO domain_events ("organizationId", type, payload, "createdAt")
    VALUES (${tenant.org.id}, 'import.finished', '{}'::jsonb, ${ago(ageMs)}::timestamp)
    RETURNING id`;
  return row!.id;
}

/** Moves a consumer's cursor to an event (every cursor is idle: the test server runs no consumer). */
async function cursorAt(name: string, eventId: bigint) {
  await server.app.prisma.$executeRaw`
    UPDATE event_publisher_cursors c SET txid = e.txid, "lastId" = e.id FROM domain_events e WHERE e.id = ${eventId} AND c.name = ${name}`;
}

async function cursorsAt(eventId: bigint) {
  for (const name of ['main', 'webhooks', 'alerts']) await cursorAt(name, eventId);
}

const existing = async (ids: bigint[]) =>
  (await server.app.prisma.domainEvent.findMany({ where: { id: { in: ids } }, select: { id: true }, orderBy: { id: 'asc' } })).map((e) => e.id);

async function endpointOf(tenant: Tenant) {
  return server.app.prisma.webhookEndpoint.create({ data: { organizationId: tenant.org.id, url: 'https://hooks.example.com/in', eventTypes: ['*'], secret: 'whsec_test' } });
}

async function delivery(tenant: Tenant, endpointId: string, eventId: bigint, status: 'PENDING' | 'DELIVERED' | 'FAILED', lastAttemptAgoMs: number) {
  return server.app.prisma.webhookDelivery.create({
    data: {
      organizationId: tenant.org.id,
      endpointId,
      eventId,
      eventType: 'import.finished',
      status,
      attemptCount: 2,
      lastAttemptAt: ago(lastAttemptAgoMs),
      createdAt: ago(lastAttemptAgoMs + HOUR),
      deliveredAt: status === 'DELIVERED' ? ago(lastAttemptAgoMs) : null,
      attempts: { create: [1, 2].map((number) => ({ number, statusCode: number === 2 && status === 'DELIVERED' ? 200 : 500, durationMs: 5, at: ago(lastAttemptAgoMs) })) },
    },
  });
}

let alertKey = 0;
async function alert(tenant: Tenant, ruleId: string, status: 'OPEN' | 'ACKNOWLEDGED' | 'RESOLVED', ageMs: number) {
  return server.app.prisma.alert.create({
    data: {
      organizationId: tenant.org.id,
      ruleId,
      kind: 'IMPORT_FAILED',
      severity: 'WARNING',
      status,
      dedupKey: `job-${alertKey++}`,
      subjectType: 'IMPORT_JOB',
      subjectId: `job-${alertKey}`,
      message: 'An import failed',
      details: {},
      firstSeenAt: ago(ageMs + DAY),
      lastSeenAt: ago(ageMs),
      acknowledgedAt: status === 'ACKNOWLEDGED' ? ago(ageMs) : null,
      resolvedAt: status === 'RESOLVED' ? ago(ageMs) : null,
      resolvedByType: status === 'RESOLVED' ? 'SYSTEM' : null,
    },
  });
}

describe('the outbox', () => {
  it('deletes old events every cursor has passed; keeps young ones, ones a cursor has not passed and ones a PENDING delivery needs', async () => {
    const endpoint = await endpointOf(a);
    const passedA = await event(a, 10 * DAY);
    const passedB = await event(b, 9 * DAY);
    const forPending = await event(a, 9 * DAY);
    const forDelivered = await event(a, 9 * DAY);
    const notPassed = await event(b, 8 * DAY);
    const young = await event(a, HOUR);
    const youngB = await event(b, HOUR);
    const all = [passedA, passedB, forPending, forDelivered, notPassed, young, youngB];
    await delivery(a, endpoint.id, forPending, 'PENDING', 9 * DAY);
    const delivered = await delivery(a, endpoint.id, forDelivered, 'DELIVERED', DAY);
    await cursorsAt(youngB);
    await cursorAt('alerts', forDelivered);

    expect((await sweep()).events).toBe(3);
    expect(await existing(all)).toEqual([forPending, notPassed, young, youngB]);

    // Once the alerts evaluator has passed it, the old event goes too; the young ones stay.
    await cursorAt('alerts', youngB);
    expect((await sweep()).events).toBe(1);
    expect(await existing(all)).toEqual([forPending, young, youngB]);
    expect((await sweep()).events).toBe(0);

    // A delivery whose event is gone cannot be replayed; one whose event is kept can.
    const refused = await server.call('POST', `/api/webhooks/endpoints/${endpoint.id}/deliveries/${delivered.id}/replay`, { token: a.key });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INVALID_STATE' });
    const pending = await server.app.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId: forPending } });
    expect((await server.call('POST', `/api/webhooks/endpoints/${endpoint.id}/deliveries/${pending.id}/replay`, { token: a.key })).status).toBe(200);
  });

  it('keeps everything while a consumer has no cursor row', async () => {
    const old = await event(a, 30 * DAY);
    await cursorsAt(old);
    const [alerts] = await server.app.prisma.$queryRaw<{ txid: bigint; lastId: bigint }[]>`DELETE FROM event_publisher_cursors WHERE name = 'alerts' RETURNING txid, "lastId"`;
    try {
      expect((await sweep()).events).toBe(0);
      expect(await existing([old])).toEqual([old]);
    } finally {
      await server.app.prisma.$executeRaw`INSERT INTO event_publisher_cursors (name, txid, "lastId") VALUES ('alerts', ${alerts!.txid}, ${alerts!.lastId})`;
    }
    expect((await sweep()).events).toBe(1);
  });

  it('prunes a backlog larger than one batch, in batches', async () => {
    await server.app.prisma.$executeRaw`
      INSERT INTO domain_events ("organizationId", type, payload, "createdAt")
      SELECT ${a.org.id}, 'import.finished', '{}'::jsonb, (now() AT TIME ZONE 'UTC') - interval '20 days' FROM generate_series(1, 12000)`;
    const youngB = await event(b, HOUR);
    await cursorsAt(youngB);
    expect((await sweep()).events).toBe(12_000);
    expect(await server.app.prisma.domainEvent.count({ where: { organizationId: a.org.id, createdAt: { lt: ago(19 * DAY) } } })).toBe(0);
    expect(await existing([youngB])).toEqual([youngB]);
  });
});

describe('webhook deliveries', () => {
  it('deletes finished deliveries older than the retention with their attempts; keeps PENDING and young ones', async () => {
    const endpointA = await endpointOf(a);
    const endpointB = await endpointOf(b);
    const oldDelivered = await delivery(a, endpointA.id, 9001n, 'DELIVERED', 31 * DAY);
    const oldFailed = await delivery(b, endpointB.id, 9002n, 'FAILED', 40 * DAY);
    const oldPending = await delivery(a, endpointA.id, 9003n, 'PENDING', 60 * DAY);
    const youngDelivered = await delivery(a, endpointA.id, 9004n, 'DELIVERED', 29 * DAY);
    const youngFailed = await delivery(b, endpointB.id, 9005n, 'FAILED', DAY);
    const ids = [oldDelivered, oldFailed, oldPending, youngDelivered, youngFailed].map((d) => d.id);

    expect((await sweep()).webhookDeliveries).toBe(2);
    const kept = await server.app.prisma.webhookDelivery.findMany({ where: { id: { in: ids } }, select: { id: true } });
    expect(kept.map((d) => d.id).sort()).toEqual([oldPending.id, youngDelivered.id, youngFailed.id].sort());
    expect(await server.app.prisma.webhookAttempt.count({ where: { deliveryId: { in: [oldDelivered.id, oldFailed.id] } } })).toBe(0);
    expect(await server.app.prisma.webhookAttempt.count({ where: { deliveryId: { in: kept.map((d) => d.id) } } })).toBe(6);

    // Through the API: the organization's list shows what is kept.
    const list = await server.call('GET', `/api/webhooks/endpoints/${endpointA.id}/deliveries`, { token: a.key });
    expect(list.body.data.map((d: { id: string }) => d.id).sort()).toEqual(expect.arrayContaining([oldPending.id, youngDelivered.id]));
    expect(list.body.data.map((d: { id: string }) => d.id)).not.toContain(oldDelivered.id);
  });
});

describe('alerts', () => {
  it('deletes alerts resolved longer ago than the retention; keeps open, acknowledged and recently resolved ones', async () => {
    const ruleA = await server.app.prisma.alertRule.create({ data: { organizationId: a.org.id, kind: 'IMPORT_FAILED' } });
    const ruleB = await server.app.prisma.alertRule.create({ data: { organizationId: b.org.id, kind: 'IMPORT_FAILED' } });
    const openOld = await alert(a, ruleA.id, 'OPEN', 200 * DAY);
    const acknowledgedOld = await alert(b, ruleB.id, 'ACKNOWLEDGED', 200 * DAY);
    const resolvedOldA = await alert(a, ruleA.id, 'RESOLVED', 91 * DAY);
    const resolvedOldB = await alert(b, ruleB.id, 'RESOLVED', 120 * DAY);
    const resolvedYoungB = await alert(b, ruleB.id, 'RESOLVED', 89 * DAY);

    expect((await sweep()).alerts).toBe(2);
    const kept = await server.app.prisma.alert.findMany({ where: { organizationId: { in: [a.org.id, b.org.id] } }, select: { id: true } });
    expect(kept.map((x) => x.id).sort()).toEqual([openOld.id, acknowledgedOld.id, resolvedYoungB.id].sort());
    expect((await server.call('GET', `/api/alerts/${resolvedOldA.id}`, { token: a.key })).status).toBe(404);
    expect((await server.call('GET', `/api/alerts/${resolvedOldB.id}`, { token: b.key })).status).toBe(404);
    expect((await server.call('GET', `/api/alerts/${openOld.id}`, { token: a.key })).status).toBe(200);
  });
});

describe('two sweeps at once', () => {
  it('delete each row once, without errors', async () => {
    const rule = await server.app.prisma.alertRule.create({ data: { organizationId: a.org.id, kind: 'IMPORT_FAILED' } });
    for (let i = 0; i < 20; i++) await alert(a, rule.id, 'RESOLVED', 100 * DAY);
    const [first, second] = await Promise.all([sweep(), sweep()]);
    expect(first!.alerts + second!.alerts).toBe(20);
    expect(await server.app.prisma.alert.count({ where: { ruleId: rule.id } })).toBe(0);
  });
});

describe('the loop', () => {
  it('runs every RETENTION_SWEEP_SECONDS', async () => {
    const looped = await startServerWithTwoTenants({ RETENTION_SWEEP_SECONDS: '1', ALERT_RETENTION_DAYS: '1' });
    try {
      const rule = await looped.server.app.prisma.alertRule.create({ data: { organizationId: looped.a.org.id, kind: 'IMPORT_FAILED' } });
      const create = (resolvedAgo: number, dedupKey: string) =>
        looped.server.app.prisma.alert.create({
          data: { organizationId: looped.a.org.id, ruleId: rule.id, kind: 'IMPORT_FAILED', severity: 'INFO', status: 'RESOLVED', dedupKey, subjectType: 'IMPORT_JOB', subjectId: dedupKey, message: 'm', details: {}, resolvedAt: ago(resolvedAgo), resolvedByType: 'SYSTEM' },
        });
      const old = await create(2 * DAY, 'old');
      const recent = await create(HOUR, 'recent');
      const ids = async () => (await looped.server.app.prisma.alert.findMany({ where: { ruleId: rule.id }, select: { id: true } })).map((x) => x.id);
      while ((await ids()).includes(old.id)) await new Promise((r) => setTimeout(r, 100));
      expect(await ids()).toEqual([recent.id]);
    } finally {
      await looped.server.close();
    }
  });
});

describe('settings', () => {
  it('have documented defaults and bounds', () => {
    expect(loadConfig({}).retention).toEqual({ sweepSeconds: 600, eventHours: 168, webhookDeliveryDays: 30, alertDays: 90 });
    expect(loadConfig({ RETENTION_SWEEP_SECONDS: '0' }).retention.sweepSeconds).toBe(0);
    for (const [name, value] of [
      ['EVENT_RETENTION_HOURS', '0'],
      ['EVENT_RETENTION_HOURS', '8761'],
      ['WEBHOOK_DELIVERY_RETENTION_DAYS', '-1'],
      ['WEBHOOK_DELIVERY_RETENTION_DAYS', '3651'],
      ['ALERT_RETENTION_DAYS', 'forever'],
      ['RETENTION_SWEEP_SECONDS', '-5'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
    }
  });
});
