import { z } from 'zod';
import { mustBe } from '../parse.js';
import { anyCaseEnum, wholeNumberOr } from '../query-values.js';

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export const DELIVERIES_DEFAULT_LIMIT = 50;
export const DELIVERIES_MAX_LIMIT = 100;

/** Query of GET /api/webhooks/endpoints/{id}/deliveries (without paging: the filter of webhookDeliveries). */
export const webhookDeliveryFilter = z.strictObject({
  status: anyCaseEnum(WEBHOOK_DELIVERY_STATUSES).meta({ description: `Only deliveries in this state: ${WEBHOOK_DELIVERY_STATUSES.join(', ')} (any case).` }),
});

export const webhookDeliveryListQuery = z.strictObject({
  ...webhookDeliveryFilter.shape,
  limit: wholeNumberOr(DELIVERIES_DEFAULT_LIMIT, `Must be a whole number from 1 to ${DELIVERIES_MAX_LIMIT}`, { min: 1, max: DELIVERIES_MAX_LIMIT }).meta({
    description: `Page size (default ${DELIVERIES_DEFAULT_LIMIT}, at most ${DELIVERIES_MAX_LIMIT}).`,
  }),
  offset: wholeNumberOr(0, 'Must be a whole number from 0 to 100000', { min: 0, max: 100_000 }).meta({ description: 'Deliveries to skip (default 0).' }),
});

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters');

/** Input of replayWebhookDelivery. */
export const webhookDeliveryReplay = z.strictObject({
  endpointId: id.meta({ description: 'The endpoint (404 when it is not one of the organization).' }),
  deliveryId: id.meta({ description: 'The delivery of that endpoint (404 otherwise).' }),
});
