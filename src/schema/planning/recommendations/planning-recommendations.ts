import { planningRecommendationQuery } from '../../../contracts/planning/recommendations/planning-recommendations.js';
import { type PlanningRecommendation, recommendForLocation } from '../../../services/planning/recommendations/recommend-for-location.js';
import { builder } from '../../builder.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { readScopesOf } from '../../link-scopes.js';
import { LocationType } from '../../master-data/location.js';
import { ProductType } from '../../products/product.js';
import { linked } from '../../record-loaders.js';
import { DemandSourceEnum } from '../projection/demand-rate-source.js';
import { LeadTimeSourceEnum } from '../projection/stock-projection.js';
import { TransferRecommendationType } from '../../transfers/recommendations/transfer-recommendation.js';

const canRead = { permission: 'planning.read' } as const;

export const ActionEnum = builder.enumType('PlanningAction', {
  description: 'What to do about a product at a location.',
  values: {
    ORDER: { description: 'Order from a supplier.' },
    MOVE: { description: 'Move from another location that has the units beyond its own cover.' },
    EXPEDITE: { description: 'Hurry an open purchase order that is expected after the projected stock-out.' },
  },
});

const SourceTypeEnum = builder.enumType('PlanningSourceType', {
  description: 'Where the units of a recommendation come from.',
  values: { SUPPLIER: { description: 'A supplier (supplierId).' }, LOCATION: { description: 'Another location (sourceLocationId).' } },
});

export const RecommendationRef = builder.objectRef<PlanningRecommendation>('PlanningRecommendation').implement({
  description: 'What to order, move or expedite for a product at a location, how much, by when, from where and why (docs/planning.md).',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product.', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    sku: t.exposeString('sku', { description: 'Its SKU.' }),
    productName: t.exposeString('productName', { description: 'Its name.' }),
    locationId: t.exposeID('locationId', { description: 'The location planned.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location planned.', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    action: t.field({ type: ActionEnum, description: 'What to do.', resolve: (row) => row.action }),
    quantity: t.exposeInt('quantity', { description: 'Units to order or move (up to the target), or the open units of the purchase order to expedite.' }),
    needBy: t.expose('needBy', { type: 'Date', description: 'When the units must be there: the day the projection goes below the trigger level (EXPEDITE: the projected stock-out).' }),
    orderBy: t.expose('orderBy', { type: 'Date', description: 'needBy − lead time, not before today: when to place the order or start the move.' }),
    sourceType: t.field({ type: SourceTypeEnum, nullable: true, description: 'Where the units come from (null: no supplier on record).', resolve: (row) => row.sourceType }),
    supplierId: t.exposeID('supplierId', { nullable: true, description: "The supplier (ORDER: the default source, else the supplier of the product's latest purchase order; EXPEDITE: the order's)." }),
    sourceLocationId: t.exposeID('sourceLocationId', { nullable: true, description: 'MOVE: the location with the most units beyond its own cover.' }),
    sourceLocation: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'MOVE: the source location.', resolve: (row, _args, ctx) => linked(ctx, 'location', row.sourceLocationId) }),
    transferRecommendationId: t.exposeID('transferRecommendationId', { nullable: true, description: 'MOVE: the pending or approved transfer recommendation for the same move, when one exists.' }),
    transferRecommendation: t.field({ type: TransferRecommendationType, nullable: true, authScopes: readScopesOf('TransferRecommendation'), description: 'MOVE: the matching transfer recommendation.', resolve: (row, _args, ctx) => linked(ctx, 'transferRecommendation', row.transferRecommendationId) }),
    purchaseOrderId: t.exposeID('purchaseOrderId', { nullable: true, description: 'EXPEDITE: the purchase order to hurry (the first one expected after the stock-out).' }),
    startQuantity: t.exposeFloat('startQuantity', { description: 'Available now.' }),
    inboundQuantity: t.exposeFloat('inboundQuantity', { description: 'Units coming in within the horizon.' }),
    outboundQuantity: t.exposeFloat('outboundQuantity', { description: 'Units going out within the horizon besides demand.' }),
    minQuantity: t.exposeInt('minQuantity', { description: "The level's minimum." }),
    reorderQuantity: t.exposeInt('reorderQuantity', { description: "The level's reorder point." }),
    maxQuantity: t.exposeInt('maxQuantity', { description: "The level's maximum (0: none)." }),
    targetQuantity: t.exposeFloat('targetQuantity', { description: 'The quantity an order or move brings the projection to on arrival (the maximum when set).' }),
    projectedAtArrival: t.exposeFloat('projectedAtArrival', { description: 'The projection (not below 0) on the day units ordered now could arrive: needBy, or today + lead time when later.' }),
    reorderCrossingDate: t.expose('reorderCrossingDate', { type: 'Date', nullable: true, description: 'The day the projection first goes below the reorder point, within the horizon.' }),
    stockOutDate: t.expose('stockOutDate', { type: 'Date', nullable: true, description: 'The day the projection reaches zero, within the horizon.' }),
    daysOfCover: t.exposeFloat('daysOfCover', { nullable: true, description: 'Days until the projection reaches zero; null without demand.' }),
    demandRate: t.exposeFloat('demandRate', { description: 'Expected demand, units per day.' }),
    demandSource: t.field({ type: DemandSourceEnum, nullable: true, description: 'Where the demand rate came from (null: none).', resolve: (row) => row.demandSource }),
    leadTimeDays: t.exposeInt('leadTimeDays', { description: 'Days from ordering to receiving.' }),
    leadTimeSource: t.field({ type: LeadTimeSourceEnum, description: 'Where the lead time came from.', resolve: (row) => row.leadTimeSource }),
    horizonDays: t.exposeInt('horizonDays', { description: 'Days projected: lead time + review period (at most 365).' }),
    reason: t.exposeString('reason', { description: 'Why, in words.' }),
  }),
});

builder.queryFields((t) => ({
  planningRecommendations: t.field({
    type: [RecommendationRef],
    description:
      'Per product at the location whose projection goes below its reorder point within its lead time + review period: what to order, move or expedite, most urgent first (every such product: a list, not a connection).',
    authScopes: canRead,
    args: contractArgs(t, planningRecommendationQuery),
    resolve: (_parent, args, ctx) => recommendForLocation(ctx, parseInput(planningRecommendationQuery, args)),
  }),
}));
