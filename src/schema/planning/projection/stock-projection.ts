import { stockProjectionArgs } from '../../../contracts/planning/projection/stock-projection.js';
import { stockProjection, type StockProjection } from '../../../services/planning/projection/stock-projection.js';
import { builder } from '../../builder.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { readScopesOf } from '../../link-scopes.js';
import { LocationType } from '../../master-data/location.js';
import { ProductType } from '../../products/product.js';
import { linked } from '../../record-loaders.js';
import { DemandSourceEnum } from './demand-rate-source.js';

const canRead = { permission: 'planning.read' } as const;

export const LeadTimeSourceEnum = builder.enumType('LeadTimeSource', {
  description: 'Where a lead time came from, in this order.',
  values: {
    LEVEL: { description: "The inventory level's expectedLeadTimeDays." },
    SUPPLIER: { description: "The leadTimeDays of the supplier of the product's latest purchase order (not cancelled)." },
    DEFAULT: { description: 'The default lead time (14 days).' },
  },
});

const PointRef = builder.objectRef<StockProjection['points'][number]>('StockProjectionPoint').implement({
  description: 'The projected quantity on a day: available now + events up to that day − demand rate × days.',
  fields: (t) => ({
    day: t.exposeInt('day', { description: 'Days from today (0 is today).' }),
    date: t.expose('date', { type: 'Date', description: 'The day (UTC).' }),
    quantity: t.exposeFloat('quantity', { description: 'Projected units (two decimals; negative: demand not covered).' }),
  }),
});

const ProjectionRef = builder.objectRef<StockProjection>('StockProjection').implement({
  description: 'What stock of a product at a location will be over a horizon (docs/planning.md).',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product.', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location.', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    startQuantity: t.exposeFloat('startQuantity', { description: 'Available now: on hand − reserved − held − picked − recalled − expired, lots expired or recalled left out.' }),
    inboundQuantity: t.exposeFloat('inboundQuantity', { description: 'Units coming in within the horizon: open purchase orders, transfers in transit, approved transfer recommendations into it.' }),
    outboundQuantity: t.exposeFloat('outboundQuantity', { description: 'Units going out within the horizon (besides demand): backorders of open sales orders, approved transfer recommendations out of it, the unreserved (short) units of confirmed wholesale bookings at their week.' }),
    demandRate: t.exposeFloat('demandRate', { description: 'Expected demand, units per day (0 without any).' }),
    demandSource: t.field({ type: DemandSourceEnum, nullable: true, description: 'Where the demand rate came from (null: no demand found).', resolve: (row) => row.demandSource }),
    leadTimeDays: t.exposeInt('leadTimeDays', { description: 'Days from ordering to receiving.' }),
    leadTimeSource: t.field({ type: LeadTimeSourceEnum, description: 'Where the lead time came from.', resolve: (row) => row.leadTimeSource }),
    reviewPeriodDays: t.exposeInt('reviewPeriodDays', { description: "The review period: the level's replenishmentPeriodDays, else 28." }),
    horizonDays: t.exposeInt('horizonDays', { description: 'Days projected.' }),
    minQuantity: t.exposeInt('minQuantity', { description: "The level's minimum (0 without a level)." }),
    reorderQuantity: t.exposeInt('reorderQuantity', { description: "The level's reorder point (0 without a level)." }),
    maxQuantity: t.exposeInt('maxQuantity', { description: "The level's maximum (0: none)." }),
    reorderCrossingDate: t.expose('reorderCrossingDate', { type: 'Date', nullable: true, description: 'The day the projection first goes below the reorder point, within the horizon (today when it already is).' }),
    minCrossingDate: t.expose('minCrossingDate', { type: 'Date', nullable: true, description: 'The day the projection first goes below the minimum, within the horizon.' }),
    stockOutDate: t.expose('stockOutDate', { type: 'Date', nullable: true, description: 'The day the projection reaches zero, within the horizon.' }),
    daysOfCover: t.exposeFloat('daysOfCover', { nullable: true, description: 'Days until the projection reaches zero (inbound within the horizon counted, one decimal); null without demand.' }),
    points: t.field({ type: [PointRef], description: 'The projected quantity every 7 days from today, and on the last day of the horizon.', resolve: (row) => row.points }),
  }),
});

builder.queryFields((t) => ({
  stockProjection: t.field({
    type: [ProjectionRef],
    description: 'The projection of future stock of products at a location, by SKU (at most 100 products): available now, inbound and outbound within the horizon, demand, lead time, the points of the curve, the reorder, minimum and zero crossings and days of cover.',
    authScopes: canRead,
    args: contractArgs(t, stockProjectionArgs, { types: { productMasterIds: ['ID'] } }),
    resolve: (_parent, args, ctx) => stockProjection(ctx, parseInput(stockProjectionArgs, args)),
  }),
}));
