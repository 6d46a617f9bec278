import type { z } from 'zod';
import { DELIVERIES_DEFAULT_LIMIT, type webhookDeliveryListQuery } from '../../contracts/webhooks/webhook-deliveries.js';
import type { RequestContext } from '../../context.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { DomainError, notFound } from '../../kernel/errors.js';
import { type ListWindow, orgId } from '../tenant.js';
import { assertActive, getWebhookEndpoint } from './webhook-endpoints.js';

export type DeliveryListArgs = z.output<typeof webhookDeliveryListQuery>;

const WITH_ATTEMPTS = { include: { attempts: { orderBy: { number: 'asc' } } } } as const;

/** A page of an endpoint's deliveries, newest first, with the total; unknown or foreign endpoint: 404. */
export async function listWebhookDeliveries(ctx: RequestContext, endpointId: string, f: Partial<DeliveryListArgs>, window?: ListWindow) {
  await getWebhookEndpoint(ctx, endpointId);
  const where: Prisma.WebhookDeliveryWhereInput = { organizationId: orgId(ctx), endpointId, ...(f.status ? { status: f.status } : {}) };
  const limit = window ? window.take : (f.limit ?? DELIVERIES_DEFAULT_LIMIT);
  const offset = window ? window.skip : (f.offset ?? 0);
  const [deliveries, total] = await Promise.all([
    ctx.prisma.webhookDelivery.findMany({ where, orderBy: { id: 'desc' }, skip: offset, take: limit, ...WITH_ATTEMPTS }),
    ctx.prisma.webhookDelivery.count({ where }),
  ]);
  return { deliveries, total, limit, offset };
}

/** One delivery of an endpoint with its attempts; unknown, foreign or of another endpoint: 404. */
export async function getWebhookDelivery(ctx: RequestContext, endpointId: string, deliveryId: string) {
  const row = await ctx.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId, organizationId: orgId(ctx) }, ...WITH_ATTEMPTS });
  if (!row) throw notFound('Webhook delivery');
  return row;
}

/**
 * Queues a delivery again, due now, with a fresh budget of attempts (whatever its state: a DELIVERED one is
 * sent again, with the same Webhook-Id). The endpoint must be active and the event still in the outbox (it is
 * pruned after EVENT_RETENTION_HOURS once no PENDING delivery needs it): 409 otherwise.
 */
export async function replayWebhookDelivery(ctx: RequestContext, endpointId: string, deliveryId: string) {
  const endpoint = await getWebhookEndpoint(ctx, endpointId);
  assertActive(endpoint);
  const current = await getWebhookDelivery(ctx, endpointId, deliveryId);
  const event = await ctx.prisma.domainEvent.findFirst({ where: { id: current.eventId, organizationId: orgId(ctx) }, select: { id: true } });
  if (!event) throw new DomainError('INVALID_STATE', 'The event of this delivery is no longer kept (EVENT_RETENTION_HOURS): it cannot be sent again');
  // retriesFrom from the row itself: an attempt finishing meanwhile has counted its number already.
  await ctx.prisma.$executeRaw`
    UPDATE webhook_deliveries SET status = 'PENDING', "nextAttemptAt" = now(), "retriesFrom" = "attemptCount", "deliveredAt" = NULL, "updatedAt" = now()
    WHERE id = ${current.id} AND "organizationId" = ${orgId(ctx)}`;
  return getWebhookDelivery(ctx, endpointId, deliveryId);
}
