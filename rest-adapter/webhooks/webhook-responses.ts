import { z } from 'zod';
import { WEBHOOK_DELIVERY_STATUSES } from '../../src/contracts/webhooks/webhook-deliveries.js';
import { dateTime, integer, nullableString } from '../common-responses.js';

export const webhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: nullableString,
    eventTypes: z.array(z.string()).describe('Event types it receives; ["*"] for every type.'),
    active: z.boolean().describe('Whether it receives events now (false: paused, or disabled after repeated failure).'),
    consecutiveFailures: integer.describe('Failed attempts since its last successful one.'),
    disabledAt: dateTime.nullable().describe('When it was disabled after repeated failure.'),
    disabledReason: nullableString.describe('Why it was disabled: the run of failures and the last error.'),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'WebhookEndpoint', description: 'A URL of the organization that receives its domain events, signed. Never carries the secret.' });

export const webhookEndpointWithSecret = z
  .intersection(webhookEndpoint, z.object({ secret: z.string().describe('The signing secret (whsec_…): verify Webhook-Signature with it.') }))
  .meta({ id: 'WebhookEndpointWithSecret', description: 'The endpoint and its signing secret. The secret is shown this once: store it now.' });

export const webhookEndpointList = z.object({ data: z.array(webhookEndpoint) });

const attempt = z
  .object({
    id: z.string(),
    number: integer.describe('Which attempt, from 1.'),
    statusCode: integer.nullable().describe("The endpoint's HTTP status (null: refused, timed out, URL not allowed)."),
    error: nullableString.describe('Why it failed (null when it succeeded).'),
    durationMs: integer,
    responseExcerpt: nullableString.describe("The start of the endpoint's answer (at most 1,000 characters)."),
    at: dateTime,
  })
  .meta({ id: 'WebhookAttempt', description: 'One try of a delivery and what the endpoint answered.' });

export const webhookDelivery = z
  .object({
    id: z.string().describe('Sent as the Webhook-Id header (the same on every attempt and replay).'),
    endpointId: z.string(),
    eventId: z.string().describe("The domain event (the body's id)."),
    eventType: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attemptCount: integer,
    nextAttemptAt: dateTime.nullable().describe('When the next attempt is due (PENDING only).'),
    lastAttemptAt: dateTime.nullable(),
    deliveredAt: dateTime.nullable(),
    createdAt: dateTime,
    attempts: z.array(attempt),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event for one endpoint, with its attempts.' });

export const webhookDeliveryList = z
  .object({ data: z.array(webhookDelivery), total: integer, limit: integer, offset: integer })
  .describe('A page of deliveries, newest first.');
