import { afterAll, beforeAll, describe } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import { itProvokesEachRefusal, runMutation } from '../support/mutation-refusals.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Every declared refusal of the webhook mutations, provoked once.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let endpointId: string;
let pausedId: string;
let deliveryId: string;
let theirs: string;

const PUBLIC = 'https://93.184.215.14/refusals';

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  const create = async (tenant: Tenant, body: Record<string, unknown>) => (await server.call('POST', '/api/webhooks/endpoints', { token: tenant.key, body: { url: PUBLIC, eventTypes: ['*'], ...body } })).body.id as string;
  endpointId = await create(a, {});
  pausedId = await create(a, { active: false });
  theirs = await create(b, {});
  // A delivery of the paused endpoint, as the worker would have written it (the fan-out is off here).
  deliveryId = (await server.app.prisma.webhookDelivery.create({ data: { organizationId: a.org.id, endpointId: pausedId, eventId: 1n, eventType: 'stock.changed', status: 'FAILED' } })).id;
  for (let i = 0; i < 19; i++) await create(b, {});
});
afterAll(() => server?.close());

const run = (name: string, args: Record<string, unknown>, token = a.key) => runMutation(server, token, name, args);

describe('refusals of the webhook mutations', () => {
  itProvokesEachRefusal({
    createWebhookEndpoint: {
      ValidationError: ['VALIDATION_ERROR', () => run('createWebhookEndpoint', { input: { url: 'https://169.254.169.254/', eventTypes: ['*'] } })],
      ConflictError: ['INVALID_STATE', () => run('createWebhookEndpoint', { input: { url: PUBLIC, eventTypes: ['*'] } }, b.key)],
    },
    updateWebhookEndpoint: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateWebhookEndpoint', { input: { id: endpointId, eventTypes: ['no.such'] } })],
      NotFoundError: ['NOT_FOUND', () => run('updateWebhookEndpoint', { input: { id: theirs, active: false } })],
    },
    deleteWebhookEndpoint: {
      ValidationError: ['VALIDATION_ERROR', () => run('deleteWebhookEndpoint', { input: { id: ' ' } })],
      NotFoundError: ['NOT_FOUND', () => run('deleteWebhookEndpoint', { input: { id: theirs } })],
    },
    rotateWebhookEndpointSecret: {
      ValidationError: ['VALIDATION_ERROR', () => run('rotateWebhookEndpointSecret', { input: { id: '' } })],
      NotFoundError: ['NOT_FOUND', () => run('rotateWebhookEndpointSecret', { input: { id: theirs } })],
    },
    replayWebhookDelivery: {
      ValidationError: ['VALIDATION_ERROR', () => run('replayWebhookDelivery', { input: { endpointId: '', deliveryId } })],
      NotFoundError: ['NOT_FOUND', () => run('replayWebhookDelivery', { input: { endpointId, deliveryId } })],
      ConflictError: ['INVALID_STATE', () => run('replayWebhookDelivery', { input: { endpointId: pausedId, deliveryId } })],
    },
  });
});
