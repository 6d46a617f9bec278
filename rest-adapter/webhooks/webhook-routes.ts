import { webhookDeliveryListQuery } from '../../src/contracts/webhooks/webhook-deliveries.js';
import { webhookEndpointChanges, webhookEndpointCreate, webhookNoBody } from '../../src/contracts/webhooks/webhook-endpoints.js';
import { jsonContent, pathParam, responses } from '../openapi-common.js';
import { defineRoutes } from '../route.js';
import { webhookDelivery, webhookDeliveryList, webhookEndpoint, webhookEndpointList, webhookEndpointWithSecret } from './webhook-responses.js';

const ENDPOINT = 'id url description eventTypes active consecutiveFailures disabledAt disabledReason createdAt updatedAt';
const DELIVERY = 'id endpointId eventId eventType status attemptCount nextAttemptAt lastAttemptAt deliveredAt createdAt attempts { id number statusCode error durationMs responseExcerpt at }';

const tags = ['Webhooks'];
const idParam = pathParam('id', 'Webhook endpoint id');
const deliveryParam = pathParam('deliveryId', 'Delivery id (the Webhook-Id the endpoint received)');
const READ = 'Needs admin.read (an ADMIN user, or an API key with admin:read, admin:write or *).';
const WRITE = 'Needs admin.write (an ADMIN user, or an API key with admin:write or *).';
const endpointBody = (description: string) => ({ description, ...jsonContent(webhookEndpoint) });
const secretBody = (description: string) => ({ description, ...jsonContent(webhookEndpointWithSecret) });
const deliveryBody = (description: string) => ({ description, ...jsonContent(webhookDelivery) });

export const webhookRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/webhooks/endpoints',
    operation: `query { allWebhookEndpoints { ${ENDPOINT} } }`,
    result: (data) => ({ data: data.allWebhookEndpoints }),
    doc: {
      operationId: 'listWebhookEndpoints',
      summary: 'List webhook endpoints',
      description: `Every endpoint of the organization (at most 20), newest first, without secrets. ${READ}`,
      tags,
      responses: responses({ 200: { description: 'The endpoints', ...jsonContent(webhookEndpointList) } }, [401, 403]),
    },
  },
  {
    method: 'POST',
    path: '/api/webhooks/endpoints',
    operation: `mutation ($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { secret endpoint { ${ENDPOINT} } } }`,
    input: { body: webhookEndpointCreate },
    variables: ({ body }) => ({ input: body }),
    result: ({ createWebhookEndpoint: { endpoint, secret } }) => ({ ...endpoint, secret }),
    status: 201,
    doc: {
      operationId: 'createWebhookEndpoint',
      summary: 'Register a webhook endpoint',
      description:
        'Body {url, eventTypes (known types or ["*"]), description?, active?}. Returns the signing secret in `secret`, this once. The URL must be https and its host ' +
        'must resolve to public addresses only (not loopback, private, link-local or metadata, shared, multicast or reserved; IPv4-mapped IPv6 neither): ' +
        `otherwise 400 VALIDATION_ERROR with details.url saying why. The 21st endpoint of an organization: 409 INVALID_STATE. ${WRITE}`,
      tags,
      responses: responses({ 201: secretBody('The endpoint and its secret') }, [400, 401, 403, 409]),
    },
  },
  {
    method: 'GET',
    path: '/api/webhooks/endpoints/:id',
    operation: `query ($id: ID!) { webhookEndpoint(id: $id) { ${ENDPOINT} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.webhookEndpoint,
    doc: { operationId: 'getWebhookEndpoint', summary: 'Get a webhook endpoint', description: READ, tags, parameters: [idParam], responses: responses({ 200: endpointBody('The endpoint') }, [401, 403, 404]) },
  },
  {
    method: 'PATCH',
    path: '/api/webhooks/endpoints/:id',
    operation: `mutation ($input: WebhookEndpointUpdateInput!) { updateWebhookEndpoint(input: $input) { ${ENDPOINT} } }`,
    input: { body: webhookEndpointChanges },
    variables: ({ params, body }) => ({ input: { ...(body as object), id: params.id } }),
    result: (data) => data.updateWebhookEndpoint,
    doc: {
      operationId: 'updateWebhookEndpoint',
      summary: 'Change a webhook endpoint',
      description: `Body: any of {url, eventTypes, description, active}. A new url is checked as on registration. active: true re-activates a disabled endpoint (its failure count starts again). ${WRITE}`,
      tags,
      parameters: [idParam],
      responses: responses({ 200: endpointBody('The changed endpoint') }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'DELETE',
    path: '/api/webhooks/endpoints/:id',
    operation: `mutation ($input: WebhookEndpointRefInput!) { deleteWebhookEndpoint(input: $input) { ${ENDPOINT} } }`,
    variables: ({ params }) => ({ input: { id: params.id } }),
    result: (data) => data.deleteWebhookEndpoint,
    doc: {
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      description: `Removes the endpoint with its deliveries and attempts and answers it as it was. ${WRITE}`,
      tags,
      parameters: [idParam],
      responses: responses({ 200: endpointBody('The deleted endpoint') }, [401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/webhooks/endpoints/:id/rotate-secret',
    operation: `mutation ($input: WebhookEndpointRefInput!) { rotateWebhookEndpointSecret(input: $input) { secret endpoint { ${ENDPOINT} } } }`,
    input: { body: webhookNoBody },
    variables: ({ params }) => ({ input: { id: params.id } }),
    result: ({ rotateWebhookEndpointSecret: { endpoint, secret } }) => ({ ...endpoint, secret }),
    doc: {
      operationId: 'rotateWebhookEndpointSecret',
      summary: 'Rotate the signing secret of a webhook endpoint',
      description: `Body: none or {}. Returns the new secret in \`secret\`, this once; every attempt from now on is signed with it. ${WRITE}`,
      tags,
      parameters: [idParam],
      responses: responses({ 200: secretBody('The endpoint and its new secret') }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/webhooks/endpoints/:id/deliveries',
    operation: `query ($endpointId: ID!, $status: WebhookDeliveryStatus, $limit: Int, $offset: Int) {
      webhookDeliveriesPage(endpointId: $endpointId, status: $status, limit: $limit, offset: $offset) { deliveries { ${DELIVERY} } total limit offset }
    }`,
    input: { query: webhookDeliveryListQuery },
    variables: ({ params, query }) => ({ ...query, endpointId: params.id }),
    result: ({ webhookDeliveriesPage: page }) => ({ data: page.deliveries, total: page.total, limit: page.limit, offset: page.offset }),
    doc: {
      operationId: 'listWebhookDeliveries',
      summary: "List an endpoint's deliveries with their attempts",
      description: `Newest first; filter status (PENDING, DELIVERED or FAILED, any case); limit/offset paging (default 50, at most 100). ${READ}`,
      tags,
      parameters: [idParam],
      responses: responses({ 200: { description: 'A page of deliveries', ...jsonContent(webhookDeliveryList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/webhooks/endpoints/:id/deliveries/:deliveryId',
    operation: `query ($endpointId: ID!, $deliveryId: ID!) { webhookDelivery(endpointId: $endpointId, deliveryId: $deliveryId) { ${DELIVERY} } }`,
    variables: ({ params }) => ({ endpointId: params.id, deliveryId: params.deliveryId }),
    result: (data) => data.webhookDelivery,
    doc: {
      operationId: 'getWebhookDelivery',
      summary: 'Get a delivery with its attempts',
      description: READ,
      tags,
      parameters: [idParam, deliveryParam],
      responses: responses({ 200: deliveryBody('The delivery') }, [401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/webhooks/endpoints/:id/deliveries/:deliveryId/replay',
    operation: `mutation ($input: WebhookDeliveryReplayInput!) { replayWebhookDelivery(input: $input) { ${DELIVERY} } }`,
    input: { body: webhookNoBody },
    variables: ({ params }) => ({ input: { endpointId: params.id, deliveryId: params.deliveryId } }),
    result: (data) => data.replayWebhookDelivery,
    doc: {
      operationId: 'replayWebhookDelivery',
      summary: 'Queue a delivery again',
      description:
        'Body: none or {}. The delivery becomes PENDING, due now, with a fresh budget of attempts (a DELIVERED one is sent again, with the same Webhook-Id). ' +
        `The endpoint must be active, and the event still kept in the outbox (EVENT_RETENTION_HOURS): 409 INVALID_STATE otherwise. ${WRITE}`,
      tags,
      parameters: [idParam, deliveryParam],
      responses: responses({ 200: deliveryBody('The delivery, queued') }, [400, 401, 403, 404, 409]),
    },
  },
]);
