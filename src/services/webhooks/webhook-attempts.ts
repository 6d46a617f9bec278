import type { WebhookSettings } from '../../config.js';
import type { OperatorContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { currentLogger } from '../../kernel/log.js';
import type { SecretKeyring } from '../../kernel/secret-keys.js';
import { appendEventsOf } from '../events/outbox/append-events.js';
import { retryDelayMs } from './webhook-retry.js';
import { type SendResult, sendWebhook } from './webhook-send.js';
import { signingSecrets } from './webhook-secret-store.js';
import { webhookSignature } from './webhook-signature.js';
import { checkWebhookUrl, type UrlCheck } from './webhook-url-guard.js';

/** Deliveries one step claims and sends at once, in all and of one endpoint. */
const CLAIM_LIMIT = 100;
const CLAIM_PER_ENDPOINT = 25;

interface Claimed {
  id: string;
  organizationId: string;
  endpointId: string;
  eventId: bigint;
  attemptCount: number;
  retriesFrom: number;
}

/**
 * Claims due deliveries of active endpoints (SKIP LOCKED: instances share the work) in one statement that
 * counts the attempt and pushes nextAttemptAt past the attempt's end: a process that dies while sending
 * leaves the delivery due again after that lease, for any instance. At most CLAIM_PER_ENDPOINT of one endpoint,
 * so an endpoint with a backlog leaves room in the step for the others' oldest deliveries.
 */
function claimDue(ctx: OperatorContext, leaseMs: number) {
  return ctx.prisma.$queryRaw<Claimed[]>`
    WITH due AS (
      SELECT x.id FROM webhook_endpoints e
      CROSS JOIN LATERAL (
        SELECT d.id, d."nextAttemptAt" FROM webhook_deliveries d
        WHERE d."endpointId" = e.id AND d.status = 'PENDING' AND d."nextAttemptAt" <= now()
        ORDER BY d."nextAttemptAt"
        LIMIT ${CLAIM_PER_ENDPOINT}
        FOR UPDATE OF d SKIP LOCKED) x
      WHERE e.active
      ORDER BY x."nextAttemptAt"
      LIMIT ${CLAIM_LIMIT})
    UPDATE webhook_deliveries d
    SET "attemptCount" = d."attemptCount" + 1, "lastAttemptAt" = now(), "updatedAt" = now(),
        "nextAttemptAt" = now() + ${leaseMs}::int * interval '1 millisecond'
    FROM due WHERE d.id = due.id
    RETURNING d.id, d."organizationId", d."endpointId", d."eventId", d."attemptCount", d."retriesFrom"`;
}

interface Outcome {
  delivery: Claimed;
  result: SendResult;
  /** Not sent because this instance cannot open the endpoint's secret: a failed attempt, not the receiver's failure. */
  unsigned?: boolean;
  /** Completion order within the step: an endpoint's run of failures is counted from its last success. */
  order: number;
}

/** Sends the deliveries due now; returns how many were attempted (0: nothing was due). */
export async function deliverDue(ctx: OperatorContext, settings: WebhookSettings, keys: SecretKeyring): Promise<number> {
  const claimed = await claimDue(ctx, settings.timeoutMs + 30_000);
  if (!claimed.length) return 0;
  const endpointIds = [...new Set(claimed.map((c) => c.endpointId))];
  // Each endpoint's secret opened once per step (webhook-secret-store.ts, which re-seals a stale one on the way).
  const [endpoints, secrets, events] = await Promise.all([
    ctx.prisma.webhookEndpoint.findMany({ where: { id: { in: endpointIds } }, select: { id: true, organizationId: true, url: true } }),
    signingSecrets(ctx, keys, endpointIds),
    ctx.prisma.domainEvent.findMany({ where: { id: { in: claimed.map((c) => c.eventId) } } }),
  ]);
  // A secret that does not open is logged once per step and fails its endpoint's attempts with the reason, the others go on.
  for (const endpoint of endpoints) {
    const secret = secrets.get(endpoint.id);
    if (secret && !secret.ok) currentLogger().error({ endpointId: endpoint.id, organizationId: endpoint.organizationId }, `webhook endpoint ${endpoint.id}: ${secret.reason}`);
  }
  const endpointById = new Map(endpoints.map((e) => [e.id, e]));
  const eventById = new Map(events.map((e) => [e.id, e]));
  // The guard once per endpoint and step: its deliveries of this step go to the addresses checked here.
  const checks = new Map(await Promise.all(endpoints.map(async (e) => [e.id, await checkWebhookUrl(e.url, settings)] as const)));
  let finished = 0;
  const outcomes: Outcome[] = [];
  await Promise.all(
    claimed.map(async (delivery) => {
      const endpoint = endpointById.get(delivery.endpointId);
      const event = eventById.get(delivery.eventId);
      const opened = secrets.get(delivery.endpointId);
      if (!endpoint || !opened) return; // deleted meanwhile, with its deliveries
      if (!opened.ok) {
        outcomes.push({ delivery, result: { statusCode: null, error: opened.reason.slice(0, 500), durationMs: 0, responseExcerpt: null }, unsigned: true, order: finished++ });
        return;
      }
      const result: SendResult = event
        ? // One failing attempt must not cost the batch its records: it is recorded as that attempt's error.
          await attempt({ url: endpoint.url, secret: opened.secret }, checks.get(endpoint.id)!, delivery, event, settings).catch((error: Error) => ({ statusCode: null, error: `ERROR: ${error.message}`.slice(0, 500), durationMs: 0, responseExcerpt: null }))
        : { statusCode: null, error: 'The event is no longer in the outbox', durationMs: 0, responseExcerpt: null };
      outcomes.push({ delivery, result, order: finished++ });
    }),
  );
  await record(ctx, outcomes, settings);
  return claimed.length;
}

/** The body receivers get: the event as published, with its payload as `data`. */
export const webhookBody = (event: { id: bigint; type: string; createdAt: Date; organizationId: string; payload: unknown }) =>
  JSON.stringify({ id: String(event.id), type: event.type, createdAt: event.createdAt.toISOString(), organizationId: event.organizationId, data: event.payload });

async function attempt(
  endpoint: { url: string; secret: string },
  check: UrlCheck,
  delivery: Claimed,
  event: { id: bigint; type: string; createdAt: Date; organizationId: string; payload: unknown },
  settings: WebhookSettings,
): Promise<SendResult> {
  if (!check.ok) return { statusCode: null, error: `URL not allowed: ${check.reason}`, durationMs: 0, responseExcerpt: null };
  const body = webhookBody(event);
  const headers = {
    'webhook-id': delivery.id,
    'webhook-event-type': event.type,
    'webhook-signature': webhookSignature(endpoint.secret, body, new Date()),
  };
  return sendWebhook(new URL(endpoint.url), check.target, headers, body, settings.timeoutMs);
}

const succeeded = (result: SendResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300 && !result.error;

/**
 * Records a step's attempts and outcomes in one transaction: DELIVERED; or due again after the backoff; or FAILED
 * once the attempts since the last replay reach maxAttempts. Each endpoint's run of failures is counted (reset by a
 * success, then the failures that ended after its last success); at disableAfter the endpoint is disabled, once,
 * with a webhook_endpoint.disabled event.
 */
async function record(ctx: OperatorContext, sent: Outcome[], settings: WebhookSettings) {
  if (!sent.length) return;
  const errorOf = (o: Outcome) => o.result.error ?? (succeeded(o.result) ? null : `Answered ${o.result.statusCode}`);
  await inTransaction(ctx, async (tx) => {
    // Deliveries whose endpoint was deleted while they were sent are gone with it: nothing to record for those.
    const kept = await tx.prisma.$queryRaw<{ id: string }[]>`
      SELECT id FROM webhook_deliveries WHERE id = ANY(${sent.map((o) => o.delivery.id)}::text[]) ORDER BY id FOR UPDATE`;
    const keptIds = new Set(kept.map((k) => k.id));
    const outcomes = sent.filter((o) => keptIds.has(o.delivery.id));
    if (!outcomes.length) return;
    await tx.prisma.webhookAttempt.createMany({
      data: outcomes.map((o) => ({
        deliveryId: o.delivery.id, number: o.delivery.attemptCount, statusCode: o.result.statusCode, error: errorOf(o), durationMs: o.result.durationMs, responseExcerpt: o.result.responseExcerpt,
      })),
    });
    // Only while a row is as claimed: a replay meanwhile starts afresh and keeps its own schedule.
    const delivered = outcomes.filter((o) => succeeded(o.result));
    if (delivered.length) {
      await tx.prisma.$executeRaw`
        UPDATE webhook_deliveries d SET status = 'DELIVERED', "deliveredAt" = now(), "updatedAt" = now()
        FROM unnest(${delivered.map((o) => o.delivery.id)}::text[], ${delivered.map((o) => o.delivery.attemptCount)}::int[]) AS c(id, n)
        WHERE d.id = c.id AND d."attemptCount" = c.n AND d.status = 'PENDING'`;
    }
    for (const o of outcomes.filter((o) => !succeeded(o.result))) {
      const tries = o.delivery.attemptCount - o.delivery.retriesFrom;
      await tx.prisma.webhookDelivery.updateMany({
        where: { id: o.delivery.id, attemptCount: o.delivery.attemptCount, status: 'PENDING' },
        data: tries >= settings.maxAttempts ? { status: 'FAILED' } : { nextAttemptAt: new Date(Date.now() + retryDelayMs(tries, settings)) },
      });
    }
    const byEndpoint = new Map<string, Outcome[]>();
    // An attempt not sent for want of a key is the operator's to fix: it does not count towards disabling the endpoint.
    for (const o of outcomes) if (!o.unsigned) byEndpoint.set(o.delivery.endpointId, [...(byEndpoint.get(o.delivery.endpointId) ?? []), o]);
    for (const [endpointId, ofEndpoint] of byEndpoint) {
      const lastSuccess = Math.max(-1, ...ofEndpoint.filter((o) => succeeded(o.result)).map((o) => o.order));
      const failuresAfter = ofEndpoint.filter((o) => !succeeded(o.result) && o.order > lastSuccess);
      if (lastSuccess >= 0) {
        // Most steps of a healthy endpoint change nothing here: the row is written only when its count moves.
        await tx.prisma.webhookEndpoint.updateMany({ where: { id: endpointId, consecutiveFailures: { not: failuresAfter.length } }, data: { consecutiveFailures: failuresAfter.length } });
      } else {
        await tx.prisma.webhookEndpoint.updateMany({ where: { id: endpointId }, data: { consecutiveFailures: { increment: failuresAfter.length } } });
      }
      if (!failuresAfter.length) continue;
      const reason = `Disabled after ${settings.disableAfter} consecutive failed attempts (last: ${errorOf(failuresAfter.at(-1)!)})`.slice(0, 1000);
      const [disabled] = await tx.prisma.webhookEndpoint.updateManyAndReturn({
        where: { id: endpointId, active: true, consecutiveFailures: { gte: settings.disableAfter } },
        data: { active: false, disabledAt: new Date(), disabledReason: reason },
        select: { id: true, url: true, organizationId: true, consecutiveFailures: true },
      });
      if (disabled) {
        await appendEventsOf(tx, disabled.organizationId, [
          { type: 'webhook_endpoint.disabled', subjectId: disabled.id, payload: { endpointId: disabled.id, url: disabled.url, reason, consecutiveFailures: disabled.consecutiveFailures } },
        ]);
      }
    }
  });
}
