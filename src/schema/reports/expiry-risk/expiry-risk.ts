import { expiryRiskQuery } from '../../../contracts/reports/expiry-risk/expiry-risk-query.js';
import { expiryRisk, type ExpiryRiskItem } from '../../../services/reports/expiry-risk/expiry-risk.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { builder } from '../../builder.js';
import { readScopesOf } from '../../link-scopes.js';
import { LocationType } from '../../master-data/location.js';
import { ProductType } from '../../products/product.js';
import { linked } from '../../record-loaders.js';
import { LotType } from '../../inventory/stock-lines/stock-line.js';
import { DemandSourceEnum } from '../../planning/projection/demand-rate-source.js';

const canRead = { permission: 'reports.read' } as const;

const ItemRef = builder.objectRef<ExpiryRiskItem>('ExpiryRiskItem').implement({
  description: 'A lot at a location expiring in the window: its units, the units expected to sell before it expires (first expiry first out), and the units and value at risk.',
  fields: (t) => ({
    lotId: t.exposeID('lotId', { description: 'The lot.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    lotCode: t.exposeString('lotCode', { description: 'Code of the lot.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    sku: t.exposeString('sku', { description: "The product's SKU." }),
    productName: t.exposeString('productName', { description: "The product's name." }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    expiryDate: t.expose('expiryDate', { type: 'Date', description: 'The date the lot expires (it can still be sold on that day).' }),
    daysLeft: t.exposeInt('daysLeft', { description: 'Days from today (UTC) to the expiry date; negative when it has passed.' }),
    quantity: t.exposeInt('quantity', { description: 'Units of the lot on hand at the location, not yet marked expired.' }),
    reserved: t.exposeInt('reserved', { description: 'Of them, units reserved for orders (expected to sell).' }),
    onHold: t.exposeInt('onHold', { description: 'Of them, units on hold (not expected to sell).' }),
    recalled: t.exposeInt('recalled', { description: 'Of them, units recalled (not expected to sell).' }),
    unitCost: t.exposeFloat('unitCost', { nullable: true, description: "The product's unit cost (null when unknown: values count 0)." }),
    value: t.exposeFloat('value', { description: 'quantity × unit cost.' }),
    demandPerDay: t.exposeFloat('demandPerDay', { description: 'Expected demand of the product at the location, units per day (0 when no source has a number).' }),
    demandSource: t.field({ type: DemandSourceEnum, nullable: true, description: 'Where demandPerDay came from (null when no source has a number).', resolve: (row) => row.demandSource }),
    expectedToSell: t.exposeInt('expectedToSell', {
      description: "Units expected to leave before the expiry date: reserved and picked ones, and the demand of the days before it that reaches this lot once the product's earlier-expiring lots are used (first expiry first out).",
    }),
    atRiskUnits: t.exposeInt('atRiskUnits', { description: 'quantity − expectedToSell: the units that will not sell in time.' }),
    atRiskValue: t.exposeFloat('atRiskValue', { description: 'atRiskUnits × unit cost: what the report is sorted by, largest first.' }),
  }),
});

builder.queryFields((t) => ({
  expiryRisk: t.field({
    type: [ItemRef],
    description:
      'Lots of a location expiring in a window (default today to 90 days on), each with the units expected to sell before they expire and the units and value at risk, ' +
      'largest value at risk first (at most 2,000 lots). NOT_FOUND for a location that is not the organization\'s.',
    authScopes: canRead,
    args: contractArgs(t, expiryRiskQuery),
    resolve: (_parent, args, ctx) => expiryRisk(ctx, parseInput(expiryRiskQuery, args)),
  }),
}));
