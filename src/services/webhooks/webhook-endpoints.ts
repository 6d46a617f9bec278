// Webhook endpoints of the caller's organization, managed by its administrators (docs/webhooks.md). The
// signing secret is returned on create and rotate only; every other answer leaves it out. It is issued and
// stored (sealed when SECRETS_ENCRYPTION_KEY is set) through webhook-secret-store.ts only.
import type { z } from 'zod';
import type { webhookEndpointChanges, webhookEndpointCreate } from '../../contracts/webhooks/webhook-endpoints.js';
import type { RequestContext } from '../../context.js';
import { uuidv7 } from '../../db/ids.js';
import { inTransaction } from '../../db/transactions.js';
import { DomainError, notFound, validationError } from '../../kernel/errors.js';
import { type ListWindow, orgId } from '../tenant.js';
import { issueWebhookSecret } from './webhook-secret-store.js';
import { checkWebhookUrl } from './webhook-url-guard.js';

export type WebhookEndpointCreate = z.output<typeof webhookEndpointCreate>;
export type WebhookEndpointChanges = z.output<typeof webhookEndpointChanges>;

/** Every column but the secret. */
export const ENDPOINT_FIELDS = {
  id: true, organizationId: true, url: true, description: true, eventTypes: true, active: true, consecutiveFailures: true,
  disabledAt: true, disabledReason: true, createdAt: true, updatedAt: true,
} as const;

/** The SSRF guard at registration: a refused URL is a 400 on `url` saying why. */
async function guardUrl(ctx: RequestContext, url: string) {
  const check = await checkWebhookUrl(url, ctx.app.config.webhooks);
  if (!check.ok) throw validationError({ url: [check.reason] }, `URL not allowed: ${check.reason}`);
}

const scoped = (ctx: RequestContext, id: string) => ({ id, organizationId: orgId(ctx) });

/** Most endpoints an organization may register (every event is sent to each that takes it). */
export const MAX_ENDPOINTS = 20;

/** The organization's endpoints (at most MAX_ENDPOINTS), newest first, without secrets; a connection's window picks some. */
export async function listWebhookEndpoints(ctx: RequestContext, window?: ListWindow) {
  const where = { organizationId: orgId(ctx) };
  const [endpoints, total] = await Promise.all([
    ctx.prisma.webhookEndpoint.findMany({ where, orderBy: { id: 'desc' }, select: ENDPOINT_FIELDS, ...(window ? { skip: window.skip, take: window.take } : {}) }),
    ctx.prisma.webhookEndpoint.count({ where }),
  ]);
  return { items: endpoints, total };
}

/** One endpoint of the organization, without its secret; unknown or foreign: 404. */
export async function getWebhookEndpoint(ctx: RequestContext, id: string) {
  const row = await ctx.prisma.webhookEndpoint.findFirst({ where: scoped(ctx, id), select: ENDPOINT_FIELDS });
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

export type WebhookEndpointRow = Awaited<ReturnType<typeof getWebhookEndpoint>>;

/** Registers an endpoint; its secret is in the answer this once. */
export async function createWebhookEndpoint(ctx: RequestContext, input: WebhookEndpointCreate) {
  await guardUrl(ctx, input.url);
  const organizationId = orgId(ctx);
  // The id is made here: the sealed secret is bound to it.
  const id = uuidv7();
  const { secret, stored } = issueWebhookSecret(ctx.app.config.secretsEncryption, { id, organizationId });
  // Creations of one organization take turns, so two at once cannot both pass the count.
  const endpoint = await inTransaction(ctx, async (tx) => {
    await tx.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${organizationId}`}))`;
    if ((await tx.prisma.webhookEndpoint.count({ where: { organizationId } })) >= MAX_ENDPOINTS) {
      throw new DomainError('INVALID_STATE', `The organization has ${MAX_ENDPOINTS} webhook endpoints already, the most it may have; delete one first`);
    }
    return tx.prisma.webhookEndpoint.create({
      data: { id, organizationId, url: input.url, eventTypes: input.eventTypes, description: input.description ?? null, active: input.active ?? true, secret: stored },
      select: ENDPOINT_FIELDS,
    });
  });
  return { endpoint, secret };
}

/** Changes url, event types, description or active; active: true also clears a disablement and the failure count. */
export async function updateWebhookEndpoint(ctx: RequestContext, id: string, input: WebhookEndpointChanges) {
  if (input.url !== undefined) await guardUrl(ctx, input.url);
  const [row] = await ctx.prisma.webhookEndpoint.updateManyAndReturn({
    where: scoped(ctx, id),
    data: {
      url: input.url,
      eventTypes: input.eventTypes,
      description: input.description,
      active: input.active,
      ...(input.active === true ? { consecutiveFailures: 0, disabledAt: null, disabledReason: null } : {}),
    },
    select: ENDPOINT_FIELDS,
  });
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

/** Deletes an endpoint with its deliveries and their attempts; answers what it was. */
export async function deleteWebhookEndpoint(ctx: RequestContext, id: string) {
  const row = await getWebhookEndpoint(ctx, id);
  const { count } = await ctx.prisma.webhookEndpoint.deleteMany({ where: scoped(ctx, id) });
  if (!count) throw notFound('Webhook endpoint');
  return row;
}

/** A new signing secret, returned this once; the old one stops signing at once. */
export async function rotateWebhookSecret(ctx: RequestContext, id: string) {
  const { secret, stored } = issueWebhookSecret(ctx.app.config.secretsEncryption, scoped(ctx, id));
  const [endpoint] = await ctx.prisma.webhookEndpoint.updateManyAndReturn({ where: scoped(ctx, id), data: { secret: stored }, select: ENDPOINT_FIELDS });
  if (!endpoint) throw notFound('Webhook endpoint');
  return { endpoint, secret };
}

/** The endpoint must be receiving to queue a delivery again. */
export function assertActive(endpoint: { active: boolean }) {
  if (!endpoint.active) throw new DomainError('INVALID_STATE', 'The endpoint is not active: activate it (PATCH active: true) before replaying');
}
