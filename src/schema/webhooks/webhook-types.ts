import type { listWebhookDeliveries } from '../../services/webhooks/webhook-deliveries.js';
import type { WebhookEndpointRow } from '../../services/webhooks/webhook-endpoints.js';
import { builder } from '../builder.js';
import { NodeRef } from '../node/node-interface.js';

type DeliveryRow = Awaited<ReturnType<typeof listWebhookDeliveries>>['deliveries'][number];
type AttemptRow = DeliveryRow['attempts'][number];

export const WebhookEndpointRef = builder.objectRef<WebhookEndpointRow>('WebhookEndpoint').implement({
  interfaces: [NodeRef],
  description: 'A URL of the organization that receives its domain events, signed. The secret is only ever returned by createWebhookEndpoint and rotateWebhookEndpointSecret.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    url: t.exposeString('url', { description: 'Where events are POSTed.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text to recognise it by.' }),
    eventTypes: t.exposeStringList('eventTypes', { description: 'Event types it receives; ["*"] for every type.' }),
    active: t.exposeBoolean('active', { description: 'Whether it receives events now (false: paused by an administrator, or disabled after repeated failure).' }),
    consecutiveFailures: t.exposeInt('consecutiveFailures', { description: 'Failed attempts since its last successful one.' }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true, description: 'When it was disabled after repeated failure (null unless so).' }),
    disabledReason: t.exposeString('disabledReason', { nullable: true, description: 'Why it was disabled: the run of failures and the last error (null unless disabled).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was registered.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
  }),
});

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a delivery is: PENDING (due now or at nextAttemptAt) → DELIVERED, or FAILED after the last attempt; a replay makes it PENDING again.',
  values: {
    PENDING: { description: 'Waiting for its next attempt.' },
    DELIVERED: { description: 'The endpoint answered 2xx.' },
    FAILED: { description: 'Every attempt failed; replay it to try again.' },
  } as const,
});

export const WebhookAttemptRef = builder.objectRef<AttemptRow>('WebhookAttempt').implement({
  interfaces: [NodeRef],
  description: 'One try of a delivery and what the endpoint answered.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    number: t.exposeInt('number', { description: 'Which attempt of the delivery, from 1.' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The endpoint's HTTP status (null when it gave none: refused, timed out, URL not allowed)." }),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed (null when it succeeded).' }),
    durationMs: t.exposeInt('durationMs', { description: 'Milliseconds from connecting to the end of the answer.' }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: "The start of the endpoint's answer (at most 1,000 characters)." }),
    at: t.expose('at', { type: 'DateTime', description: 'When the attempt ended.' }),
  }),
});

export const WebhookDeliveryRef = builder.objectRef<DeliveryRow>('WebhookDelivery').implement({
  interfaces: [NodeRef],
  description: 'One event for one endpoint, with its attempts. Its id is the Webhook-Id header the endpoint receives (the same on every attempt and replay).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier, sent as the Webhook-Id header.' }),
    endpointId: t.exposeID('endpointId', { description: 'The endpoint.' }),
    eventId: t.string({ description: 'The domain event (the body\'s id).', resolve: (row) => String(row.eventId) }),
    eventType: t.exposeString('eventType', { description: 'The event type.' }),
    status: t.field({ type: WebhookDeliveryStatusEnum, description: 'Where the delivery is.', resolve: (row) => row.status }),
    attemptCount: t.exposeInt('attemptCount', { description: 'Attempts made, replays included.' }),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, description: 'When the next attempt is due (PENDING only).', resolve: (row) => (row.status === 'PENDING' ? row.nextAttemptAt : null) }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true, description: 'When the last attempt started.' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true, description: 'When the endpoint answered 2xx.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the event was queued for the endpoint.' }),
    attempts: t.field({ type: [WebhookAttemptRef], description: 'Its attempts, in order.', resolve: (row) => row.attempts }),
  }),
});

type WithSecret = { endpoint: WebhookEndpointRow; secret: string };

export const WebhookEndpointWithSecretRef = builder.objectRef<WithSecret>('WebhookEndpointWithSecret').implement({
  description: 'An endpoint with its signing secret, returned once: store the secret now, it cannot be read again.',
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointRef, description: 'The endpoint.', resolve: (p) => p.endpoint }),
    secret: t.exposeString('secret', { description: 'The signing secret (whsec_…): verify Webhook-Signature with it.' }),
  }),
});
