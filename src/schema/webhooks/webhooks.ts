import { DELIVERIES_DEFAULT_LIMIT, DELIVERIES_MAX_LIMIT, webhookDeliveryFilter, webhookDeliveryListQuery, webhookDeliveryReplay } from '../../contracts/webhooks/webhook-deliveries.js';
import { webhookEndpointCreate, webhookEndpointRef, webhookEndpointUpdate } from '../../contracts/webhooks/webhook-endpoints.js';
import { getWebhookDelivery, listWebhookDeliveries, replayWebhookDelivery } from '../../services/webhooks/webhook-deliveries.js';
import {
  MAX_ENDPOINTS,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '../../services/webhooks/webhook-endpoints.js';
import { builder } from '../builder.js';
import { contractArgs, contractInput, parseInput } from '../contract-input.js';
import { positionCursors, windowConnection } from '../window-connection.js';
import { WebhookDeliveryRef, WebhookDeliveryStatusEnum, WebhookEndpointRef, WebhookEndpointWithSecretRef } from './webhook-types.js';

// Endpoints receive every event of the organization they ask for, so reading them (and what was sent) is an
// administrator's: admin.read; changing them admin.write (docs/webhooks.md).
const canRead = { permission: 'admin.read' } as const;
const canWrite = { permission: 'admin.write' } as const;

type DeliveryPage = Awaited<ReturnType<typeof listWebhookDeliveries>>;

const DeliveryPageRef = builder.objectRef<DeliveryPage>('WebhookDeliveryPage').implement({
  description: 'One page of deliveries, newest first.',
  fields: (t) => ({
    deliveries: t.field({ type: [WebhookDeliveryRef], description: 'Deliveries on this page.', resolve: (p) => p.deliveries }),
    total: t.exposeInt('total', { description: 'Deliveries matching the filter in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Deliveries skipped before this page.' }),
  }),
});

const CreateInput = contractInput('WebhookEndpointCreateInput', webhookEndpointCreate, { description: 'A new webhook endpoint.' });
const UpdateInput = contractInput('WebhookEndpointUpdateInput', webhookEndpointUpdate, { description: 'The endpoint and its changes; absent fields stay.', types: { id: 'ID' } });
const RefInput = contractInput('WebhookEndpointRefInput', webhookEndpointRef, { description: 'The endpoint.', types: { id: 'ID' } });
const ReplayInput = contractInput('WebhookDeliveryReplayInput', webhookDeliveryReplay, { description: 'The delivery to queue again.', types: { endpointId: 'ID', deliveryId: 'ID' } });

builder.queryFields((t) => ({
  webhookEndpoints: t.connection(
    {
      type: WebhookEndpointRef,
      description: `The webhook endpoints of the organization (at most ${MAX_ENDPOINTS}), newest first, as a Relay connection. Needs admin.read.`,
      authScopes: canRead,
      extensions: positionCursors(DELIVERIES_MAX_LIMIT),
      resolve: (_parent, args, ctx) => windowConnection(args, MAX_ENDPOINTS, (window) => listWebhookEndpoints(ctx, window)),
    },
    {
      name: 'WebhookEndpointConnection',
      description: 'A page of webhook endpoints with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Endpoints in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  allWebhookEndpoints: t.field({
    type: [WebhookEndpointRef],
    description: `REST adapter's list (GET /api/webhooks/endpoints): every endpoint of the organization (at most ${MAX_ENDPOINTS}), newest first. Needs admin.read.`,
    deprecationReason: "The REST adapter's list (GET /api/webhooks/endpoints); GraphQL clients use the connection `webhookEndpoints`.",
    authScopes: canRead,
    resolve: async (_parent, _args, ctx) => (await listWebhookEndpoints(ctx)).items,
  }),
  webhookEndpoint: t.field({
    type: WebhookEndpointRef,
    description: "One webhook endpoint by id (null when it is unknown or not the organization's). Needs admin.read.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: { id: t.arg.id({ required: true, description: 'Endpoint id.' }) },
    resolve: (_parent, args, ctx) => getWebhookEndpoint(ctx, String(args.id)),
  }),
  webhookDeliveries: t.connection(
    {
      type: WebhookDeliveryRef,
      description: "An endpoint's deliveries with their attempts, newest first, as a Relay connection (NOT_FOUND for an endpoint that is not the organization's). Needs admin.read.",
      authScopes: canRead,
      extensions: positionCursors(DELIVERIES_MAX_LIMIT),
      args: { endpointId: t.arg.id({ required: true, description: 'The endpoint.' }), ...contractArgs(t, webhookDeliveryFilter, { types: { status: WebhookDeliveryStatusEnum } }) },
      resolve: (_parent, args, ctx) =>
        windowConnection(args, DELIVERIES_DEFAULT_LIMIT, (window) =>
          listWebhookDeliveries(ctx, String(args.endpointId), parseInput(webhookDeliveryFilter, { status: (args as { status?: unknown }).status }), window).then((page) => ({ items: page.deliveries, total: page.total })),
        ),
    },
    {
      name: 'WebhookDeliveryConnection',
      description: 'A page of deliveries with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Deliveries matching the filter, in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  webhookDeliveriesPage: t.field({
    type: DeliveryPageRef,
    description: "REST adapter's shape (GET /api/webhooks/endpoints/{id}/deliveries): a page of an endpoint's deliveries by limit and offset, newest first. Needs admin.read.",
    deprecationReason: "The REST adapter's page shape; GraphQL clients use the connection `webhookDeliveries`.",
    authScopes: canRead,
    args: { endpointId: t.arg.id({ required: true, description: 'The endpoint.' }), ...contractArgs(t, webhookDeliveryListQuery, { types: { status: WebhookDeliveryStatusEnum } }) },
    resolve: (_parent, args, ctx) => {
      const { endpointId, ...query } = args;
      return listWebhookDeliveries(ctx, String(endpointId), parseInput(webhookDeliveryListQuery, query));
    },
  }),
  webhookDelivery: t.field({
    type: WebhookDeliveryRef,
    description: "One delivery of an endpoint with its attempts (null when either is unknown or not the organization's). Needs admin.read.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: {
      endpointId: t.arg.id({ required: true, description: 'The endpoint.' }),
      deliveryId: t.arg.id({ required: true, description: 'The delivery.' }),
    },
    resolve: (_parent, args, ctx) => getWebhookDelivery(ctx, String(args.endpointId), String(args.deliveryId)),
  }),
}));

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    refusals: ['ValidationError', 'ConflictError'],
    type: WebhookEndpointWithSecretRef,
    description:
      'Registers an endpoint and returns its signing secret, once. A URL that is not https or whose host resolves to a non-public address: ValidationError on url; ' +
      `the organization has ${MAX_ENDPOINTS} already: ConflictError. Needs admin.write.`,
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The endpoint.' }) },
    resolve: (_parent, args, ctx) => createWebhookEndpoint(ctx, parseInput(webhookEndpointCreate, args.input)),
  }),
  updateWebhookEndpoint: t.field({
    refusals: ['ValidationError', 'NotFoundError'],
    type: WebhookEndpointRef,
    description: 'Changes the url (checked as on creation), event types, description or active flag; active: true re-activates a disabled endpoint. Needs admin.write.',
    authScopes: canWrite,
    args: { input: t.arg({ type: UpdateInput, required: true, description: 'The endpoint and its changes.' }) },
    resolve: (_parent, args, ctx) => {
      const { id, ...changes } = parseInput(webhookEndpointUpdate, args.input);
      return updateWebhookEndpoint(ctx, id, changes);
    },
  }),
  deleteWebhookEndpoint: t.field({
    refusals: ['ValidationError', 'NotFoundError'],
    type: WebhookEndpointRef,
    description: 'Deletes an endpoint with its deliveries and attempts; answers it as it was. Needs admin.write.',
    authScopes: canWrite,
    args: { input: t.arg({ type: RefInput, required: true, description: 'The endpoint.' }) },
    resolve: (_parent, args, ctx) => deleteWebhookEndpoint(ctx, parseInput(webhookEndpointRef, args.input).id),
  }),
  rotateWebhookEndpointSecret: t.field({
    refusals: ['ValidationError', 'NotFoundError'],
    type: WebhookEndpointWithSecretRef,
    description: 'Gives an endpoint a new signing secret, returned once; deliveries are signed with it from now on. Needs admin.write.',
    authScopes: canWrite,
    args: { input: t.arg({ type: RefInput, required: true, description: 'The endpoint.' }) },
    resolve: (_parent, args, ctx) => rotateWebhookSecret(ctx, parseInput(webhookEndpointRef, args.input).id),
  }),
  replayWebhookDelivery: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: WebhookDeliveryRef,
    description:
      'Queues a delivery again, due now, with a fresh budget of attempts (a DELIVERED one is sent again with the same Webhook-Id). The endpoint must be active, and the event still kept in the outbox (EVENT_RETENTION_HOURS): ConflictError otherwise. Needs admin.write.',
    authScopes: canWrite,
    args: { input: t.arg({ type: ReplayInput, required: true, description: 'The delivery.' }) },
    resolve: (_parent, args, ctx) => {
      const input = parseInput(webhookDeliveryReplay, args.input);
      return replayWebhookDelivery(ctx, input.endpointId, input.deliveryId);
    },
  }),
}));
