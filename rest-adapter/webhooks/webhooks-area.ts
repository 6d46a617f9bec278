import type { RestArea } from '../route.js';
import { webhookRoutes } from './webhook-routes.js';

export const webhooksArea: RestArea = {
  routes: webhookRoutes,
  tags: [
    {
      name: 'Webhooks',
      description:
        "Signed webhooks fed by the outbox of domain events (docs/webhooks.md): an organization's administrators register https endpoints for event types; each event " +
        'is POSTed as {id, type, createdAt, organizationId, data} with Webhook-Id and Webhook-Signature (t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>) headers, ' +
        'retried with exponential backoff until a 2xx, and an endpoint that keeps failing is disabled. Deliveries and their attempts are listed and can be replayed.',
    },
  ],
};
