import type { WebhookSettings } from '../../config.js';
import type { OperatorContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { appendEventsOf } from '../events/outbox/append-events.js';
import { retryDelayMs } from './webhook-retry.js';
import { type SendResult, sendWebhook } from './webhook-send.js';
import { webhookSignature } from './webhook-signature.js';
import { checkWebhookUrl } from './webhook-url-guard.js';

/** Deliveries one step claims and sends at once. */
const CLAIM_LIMIT = 10;

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
 * leaves the delivery due again after that lease, for any instance.
 */
function claimDue(ctx: OperatorContext, leaseMs: number) {
  return ctx.prisma.$queryRaw<Claimed[]>`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d."endpointId"
      WHERE d.status = 'PENDING' AND d."nextAttemptAt" <= now() AND e.active
      ORDER BY d."nextAttemptAt"
      LIMIT ${CLAIM_LIMIT}
      FOR UPDATE OF d SKIP LOCKED)
    UPDATE webhook_deliveries d
    SET "attemptCount" = d."attemptCount" + 1, "lastAttemptAt" = now(), "updatedAt" = now(),
        "nextAttemptAt" = now() + ${leaseMs}::int * interval '1 millisecond'
    FROM due WHERE d.id = due.id
    RETURNING d.id, d."organizationId", d."endpointId", d."eventId", d."attemptCount", d."retriesFrom"`;
}

/** Sends the deliveries due now; returns how many were attempted (0: nothing was due). */
export async function deliverDue(ctx: OperatorContext, settings: WebhookSettings): Promise<number> {
  const claimed = await claimDue(ctx, settings.timeoutMs + 30_000);
  if (!claimed.length) return 0;
  const [endpoints, events] = await Promise.all([
    ctx.prisma.webhookEndpoint.findMany({ where: { id: { in: [...new Set(claimed.map((c) => c.endpointId))] } }, select: { id: true, url: true, secret: true } }),
    ctx.prisma.domainEvent.findMany({ where: { id: { in: claimed.map((c) => c.eventId) } } }),
  ]);
  // Settled, not all: one failing record (its endpoint deleted meanwhile) must not leave the others unrecorded.
  const outcomes = await Promise.allSettled(
    claimed.map(async (delivery) => {
      const endpoint = endpoints.find((e) => e.id === delivery.endpointId);
      const event = events.find((e) => e.id === delivery.eventId);
      if (!endpoint) return;
      const result: SendResult = event
        ? await attempt(endpoint, delivery, event, settings)
        : { statusCode: null, error: 'The event is no longer in the outbox', durationMs: 0, responseExcerpt: null };
      await record(ctx, delivery, result, settings);
    }),
  );
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
  return claimed.length;
}

/** The body receivers get: the event as published, with its payload as `data`. */
export const webhookBody = (event: { id: bigint; type: string; createdAt: Date; organizationId: string; payload: unknown }) =>
  JSON.stringify({ id: String(event.id), type: event.type, createdAt: event.createdAt.toISOString(), organizationId: event.organizationId, data: event.payload });

async function attempt(
  endpoint: { url: string; secret: string },
  delivery: Claimed,
  event: { id: bigint; type: string; createdAt: Date; organizationId: string; payload: unknown },
  settings: WebhookSettings,
): Promise<SendResult> {
  const check = await checkWebhookUrl(endpoint.url, settings);
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
 * Records the attempt and its outcome in one transaction: DELIVERED; or due again after the backoff; or FAILED
 * once the attempts since the last replay reach maxAttempts. The endpoint's run of failures is counted; at
 * disableAfter the endpoint is disabled, once, with a webhook_endpoint.disabled event.
 */
async function record(ctx: OperatorContext, delivery: Claimed, result: SendResult, settings: WebhookSettings) {
  const ok = succeeded(result);
  const error = result.error ?? (ok ? null : `Answered ${result.statusCode}`);
  await inTransaction(ctx, async (tx) => {
    await tx.prisma.webhookAttempt.create({
      data: { deliveryId: delivery.id, number: delivery.attemptCount, statusCode: result.statusCode, error, durationMs: result.durationMs, responseExcerpt: result.responseExcerpt },
    });
    const tries = delivery.attemptCount - delivery.retriesFrom;
    // Only while the row is as claimed: a replay meanwhile starts afresh and keeps its own schedule.
    const claimedRow = { id: delivery.id, attemptCount: delivery.attemptCount, status: 'PENDING' as const };
    if (ok) {
      await tx.prisma.webhookDelivery.updateMany({ where: claimedRow, data: { status: 'DELIVERED', deliveredAt: new Date() } });
      await tx.prisma.webhookEndpoint.updateMany({ where: { id: delivery.endpointId }, data: { consecutiveFailures: 0 } });
      return;
    }
    await tx.prisma.webhookDelivery.updateMany({
      where: claimedRow,
      data: tries >= settings.maxAttempts ? { status: 'FAILED' } : { nextAttemptAt: new Date(Date.now() + retryDelayMs(tries, settings)) },
    });
    await tx.prisma.webhookEndpoint.updateMany({ where: { id: delivery.endpointId }, data: { consecutiveFailures: { increment: 1 } } });
    const reason = `Disabled after ${settings.disableAfter} consecutive failed attempts (last: ${error})`.slice(0, 1000);
    const [disabled] = await tx.prisma.webhookEndpoint.updateManyAndReturn({
      where: { id: delivery.endpointId, active: true, consecutiveFailures: { gte: settings.disableAfter } },
      data: { active: false, disabledAt: new Date(), disabledReason: reason },
      select: { id: true, url: true, organizationId: true, consecutiveFailures: true },
    });
    if (disabled) {
      await appendEventsOf(tx, disabled.organizationId, [
        { type: 'webhook_endpoint.disabled', subjectId: disabled.id, payload: { endpointId: disabled.id, url: disabled.url, reason, consecutiveFailures: disabled.consecutiveFailures } },
      ]);
    }
  });
}
