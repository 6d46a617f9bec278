import { builder } from '../builder.js';
import { MAX_WINDOW_DAYS } from '../../kernel/input-limits.js';
import { countDemandHistory, findDemandHistory } from '../../services/supply/supply-queries.js';
import { NodeRef } from '../node/node-interface.js';

builder.prismaObject('DemandHistory', {
  interfaces: [NodeRef],
  name: 'DemandRecord',
  description: 'Demand of one product at one location in one channel for one ISO week (imported with POST /api/import/demand-history).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.relation('productMaster', { description: 'The product.' }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.relation('location', { description: 'The location.' }),
    channel: t.exposeString('channel', { description: 'Channel label (ALL when the import gave none).' }),
    weekStart: t.expose('weekStart', { type: 'Date', description: 'Monday of the ISO week.' }),
    actualUnits: t.exposeFloat('actualUnits', { description: 'Units actually demanded in the week.' }),
    forecastUnits: t.exposeFloat('forecastUnits', { description: 'Units forecast for the week (the actual units when the import gave none).' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the record was last imported.' }),
  }),
});

const asString = (value: string | number | null | undefined) => (value == null ? null : String(value));

builder.queryFields((t) => ({
  demandHistory: t.prismaConnection({
    type: 'DemandHistory',
    cursor: 'id',
    description: 'Weekly demand records of the organization by week, then channel, as a Relay connection (planning data: needs planning.read).',
    authScopes: { permission: 'planning.read' },
    args: {
      productMasterId: t.arg.id({ description: 'Only this product (404 when it is not one of the organization\'s).' }),
      locationId: t.arg.id({ description: 'Only this location (404 when it is not one of the organization\'s).' }),
      channel: t.arg.string({ description: 'Only this channel label (exact match).' }),
      from: t.arg({ type: 'Date', description: 'From this day: the weeks that hold it and later ones.' }),
      to: t.arg({ type: 'Date', description: `Up to this day: the weeks that hold it and earlier ones; not before from, at most ${MAX_WINDOW_DAYS} days after it.` }),
    },
    totalCount: (_parent, args, ctx) =>
      countDemandHistory(ctx, { productMasterId: asString(args.productMasterId), locationId: asString(args.locationId), channel: args.channel, from: args.from, to: args.to }),
    resolve: (query, _parent, args, ctx) =>
      findDemandHistory(ctx, { productMasterId: asString(args.productMasterId), locationId: asString(args.locationId), channel: args.channel, from: args.from, to: args.to }, query),
  }),
}));
