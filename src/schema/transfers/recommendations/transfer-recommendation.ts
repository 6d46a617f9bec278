import {
  pendingRecommendationQuery,
  RECOMMENDATIONS_DEFAULT_LIMIT,
  RECOMMENDATIONS_MAX_LIMIT,
  recommendationListQuery,
} from '../../../contracts/transfers/recommendations/recommendations.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import type { TransferRecommendationRow } from '../../../services/transfers/recommendations/recommendation-rows.js';
import {
  getTransferRecommendation,
  listPendingTransferRecommendations,
  listTransferRecommendations,
  type RecommendationPage,
} from '../../../services/transfers/recommendations/recommendations.js';
import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { ownProduct, ownLocation, linked } from '../../record-loaders.js';
import { NodeRef } from '../../node/node-interface.js';
import { InventoryTransferRef } from '../inventory-transfers/inventory-transfer-types.js';
import { readScopesOf } from '../../link-scopes.js';
import { positionCursors, windowConnection } from '../../window-connection.js';

export const canReadTransfers = { permission: 'transfers.read' } as const;

export const RecommendationStatusEnum = builder.enumType('TransferRecommendationStatus', {
  description: 'Where a transfer recommendation is in its life.',
  values: {
    PENDING: { description: 'Generated, waiting for a decision; EXPIRED once past expiresAt.' },
    APPROVED: { description: 'Approved by a MANAGER or ADMIN; may be executed.' },
    EXECUTED: { description: 'Executed: an inventory transfer was created and shipped (transferId).' },
    REJECTED: { description: 'Rejected by a MANAGER or ADMIN (rejectedBy, rejectionComment).' },
    EXPIRED: { description: 'Left PENDING past expiresAt; can no longer be approved.' },
  } as const,
});

export const TransferPriorityEnum = builder.enumType('TransferPriority', {
  description: "How pressing a recommendation is, from the destination's state.",
  values: {
    URGENT: { description: 'The destination is out of stock.' },
    HIGH: { description: 'The destination is below its minimum.' },
    MEDIUM: { description: 'The destination is below its reorder point.' },
    LOW: { description: 'The destination has fewer days of demand than its lead time.' },
  } as const,
});

export const TransferRecommendationType = builder.objectRef<TransferRecommendationRow>('TransferRecommendation').implement({
  interfaces: [NodeRef],
  description: 'A proposed move of one product from a location in surplus to one in deficit.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product to move.' }),
    product: t.field({ type: ProductType, description: 'The product to move.', resolve: (row, _args, ctx) => ownProduct(ctx, row.productMasterId) }),
    sourceLocationId: t.exposeID('sourceLocationId', { description: 'Where the units leave (in surplus).' }),
    sourceLocation: t.field({ type: LocationType, description: 'The location the units leave (in surplus).', resolve: (row, _args, ctx) => ownLocation(ctx, row.sourceLocationId) }),
    destLocationId: t.exposeID('destLocationId', { description: 'Where the units arrive (in deficit).' }),
    destLocation: t.field({ type: LocationType, description: 'The location the units arrive at (in deficit).', resolve: (row, _args, ctx) => ownLocation(ctx, row.destLocationId) }),
    quantity: t.exposeInt('quantity', { description: 'Units to move.' }),
    priority: t.field({ type: TransferPriorityEnum, description: "URGENT, HIGH, MEDIUM or LOW, from the destination's state.", resolve: (r) => r.priority }),
    status: t.field({ type: RecommendationStatusEnum, description: 'PENDING, APPROVED, EXECUTED, REJECTED or EXPIRED (a PENDING one past expiresAt reads EXPIRED).', resolve: (r) => r.status }),
    reason: t.exposeString('reason', { description: 'Why, in words: both locations\' state and what the move does.' }),
    estimatedROI: t.exposeFloat('estimatedROI', { nullable: true, description: 'unitMargin × unitsAtRisk − unitTransferCost × quantity; null when generated without unitMargin.' }),
    unitMargin: t.exposeFloat('unitMargin', { nullable: true, description: 'Profit per unit the ROI was computed with.' }),
    unitTransferCost: t.exposeFloat('unitTransferCost', { description: 'Cost per unit moved from the source to the destination, as used for the ROI.' }),
    unitsAtRisk: t.exposeInt('unitsAtRisk', { description: 'Units of the move the destination would otherwise fail to sell before a replenishment could arrive.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When a PENDING recommendation becomes EXPIRED.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was first generated.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed (generated again, decided, executed, expired).' }),
    createdBy: t.exposeString('createdBy', { description: 'The user or API key that generated it (last).' }),
    approvedAt: t.expose('approvedAt', { type: 'DateTime', nullable: true, description: 'When it was approved.' }),
    approvedBy: t.exposeString('approvedBy', { nullable: true, description: 'The user (or API key) that approved it.' }),
    approvalComment: t.exposeString('approvalComment', { nullable: true, description: 'The comment given with the approval.' }),
    rejectedAt: t.expose('rejectedAt', { type: 'DateTime', nullable: true, description: 'When it was rejected.' }),
    rejectedBy: t.exposeString('rejectedBy', { nullable: true, description: 'The user (or API key) that rejected it.' }),
    rejectionComment: t.exposeString('rejectionComment', { nullable: true, description: 'Why it was rejected.' }),
    executedAt: t.expose('executedAt', { type: 'DateTime', nullable: true, description: 'When it was executed.' }),
    executedBy: t.exposeString('executedBy', { nullable: true, description: 'The user (or API key) that executed it.' }),
    transferId: t.exposeID('transferId', { nullable: true, description: 'The inventory transfer execute created and shipped.' }),
    transfer: t.field({ type: InventoryTransferRef, nullable: true, authScopes: readScopesOf('InventoryTransfer'), description: 'The inventory transfer execute created (null before execution).', resolve: (row, _args, ctx) => linked(ctx, 'inventoryTransfer', row.transferId) }),
  }),
});

const PageType = builder.objectRef<RecommendationPage>('TransferRecommendationPage').implement({
  description: 'A page of transfer recommendations, most pressing first, then newest.',
  fields: (t) => ({
    recommendations: t.field({ type: [TransferRecommendationType], description: 'The recommendations of this page.', resolve: (page) => page.recommendations }),
    total: t.exposeInt('total', { description: 'How many match the filters, on every page.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Recommendations skipped before this page.' }),
  }),
});

const TransferRecommendationConnection = builder.connectionObject({
  type: TransferRecommendationType,
  name: 'TransferRecommendationConnection',
  description: 'A page of transfer recommendations with the cursors to fetch the next or previous page.',
  fields: (c) => ({ totalCount: c.int({ description: 'How many match the filters, on every page.', resolve: (page) => (page as unknown as { totalCount: number }).totalCount }) }),
});

builder.queryFields((t) => {
  // The enums take upper case only; the contracts' words also speak of the query string's lower case.
  const enums = {
    types: { priority: TransferPriorityEnum, status: RecommendationStatusEnum },
    fieldDescriptions: {
      priority: 'Only this priority (URGENT, HIGH, MEDIUM or LOW).',
      status: 'Only this state (PENDING, APPROVED, EXECUTED, REJECTED or EXPIRED); an overdue PENDING one is EXPIRED.',
    },
  };
  const filterArgs = contractArgs(t, pendingRecommendationQuery, { ...enums, omit: ['limit', 'offset'] });
  const pageArgs = {
    ...contractArgs(t, pendingRecommendationQuery, { ...enums, omit: ['limit'] }),
    // GraphQL shows the page size's default in the schema; the contract applies the same one.
    limit: t.arg.int({ defaultValue: RECOMMENDATIONS_DEFAULT_LIMIT, description: `Page size (at most ${RECOMMENDATIONS_MAX_LIMIT}).` }),
  };
  const statusArg = contractArgs(t, recommendationListQuery.pick({ status: true }), enums);
  const items = (page: RecommendationPage) => ({ items: page.recommendations, total: page.total });
  return {
    transferRecommendations: t.connection(
      {
        type: TransferRecommendationType,
        description: 'Transfer recommendations of the organization, most pressing first, then newest, as a Relay connection.',
        authScopes: canReadTransfers,
        extensions: positionCursors(RECOMMENDATIONS_MAX_LIMIT),
        args: { ...statusArg, ...filterArgs },
        resolve: (_parent, args, ctx) =>
          windowConnection(args, RECOMMENDATIONS_DEFAULT_LIMIT, (window) => listTransferRecommendations(ctx, parseInput(recommendationListQuery, args), window).then(items)),
      },
      TransferRecommendationConnection,
    ),
    pendingTransferRecommendations: t.connection(
      {
        type: TransferRecommendationType,
        description: 'The PENDING recommendations that have not expired, most pressing first, as a Relay connection.',
        authScopes: canReadTransfers,
        extensions: positionCursors(RECOMMENDATIONS_MAX_LIMIT),
        args: filterArgs,
        resolve: (_parent, args, ctx) =>
          windowConnection(args, RECOMMENDATIONS_DEFAULT_LIMIT, (window) => listPendingTransferRecommendations(ctx, parseInput(pendingRecommendationQuery, args), window).then(items)),
      },
      TransferRecommendationConnection,
    ),
    transferRecommendationsPage: t.field({
      type: PageType,
      description: "REST adapter's shape (GET /api/transfers/recommendations): a page of transfer recommendations by limit and offset, most pressing first, then newest.",
      deprecationReason: "The REST adapter's page shape (GET /api/transfers/recommendations); GraphQL clients use the connection `transferRecommendations`.",
      authScopes: canReadTransfers,
      args: { ...statusArg, ...pageArgs },
      resolve: (_parent, args, ctx) => listTransferRecommendations(ctx, parseInput(recommendationListQuery, args)),
    }),
    pendingTransferRecommendationsPage: t.field({
      type: PageType,
      description: "REST adapter's shape (GET /api/transfers/recommendations/pending): a page of the PENDING recommendations that have not expired by limit and offset, most pressing first.",
      deprecationReason: "The REST adapter's page shape (GET /api/transfers/recommendations/pending); GraphQL clients use the connection `pendingTransferRecommendations`.",
      authScopes: canReadTransfers,
      args: pageArgs,
      resolve: (_parent, args, ctx) => listPendingTransferRecommendations(ctx, parseInput(pendingRecommendationQuery, args)),
    }),
    transferRecommendation: t.field({
      type: TransferRecommendationType,
      description: "One transfer recommendation by id; null when it is unknown or not the organization's.",
      orNullWhenAbsent: true,
      authScopes: canReadTransfers,
      args: { id: t.arg.id({ required: true, description: 'Recommendation id.' }) },
      resolve: (_parent, args, ctx) => getTransferRecommendation(ctx, String(args.id)),
    }),
  };
});
