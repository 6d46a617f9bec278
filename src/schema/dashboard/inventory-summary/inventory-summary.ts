import { inventorySummaryQuery } from '../../../contracts/dashboard/inventory-summary/inventory-summary-query.js';
import { inventorySummary, type InventorySummary } from '../../../services/dashboard/inventory-summary/inventory-summary.js';
import { builder } from '../../builder.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { readScopesOf } from '../../link-scopes.js';
import { LocationType } from '../../master-data/location.js';
import { linked } from '../../record-loaders.js';

const MethodEnum = builder.enumType('InventorySummaryMethod', {
  description: 'Where the figures of an inventory summary come from.',
  values: {
    STOCK_LINES: { description: 'The stock lines as they are now (no asOf).' },
    LEDGER: { description: 'Rebuilt from the stock ledger as of asOf: the latest stock snapshot at or before it plus the ledger rows after it.' },
  } satisfies Record<InventorySummary['computedFrom']['method'], unknown>,
});

const SourceRef = builder.objectRef<InventorySummary['computedFrom']>('InventorySummarySource').implement({
  description: 'How an inventory summary was computed.',
  fields: (t) => ({
    method: t.field({ type: MethodEnum, description: 'Stock lines (now) or ledger (asOf).', resolve: (s) => s.method }),
    snapshotId: t.exposeID('snapshotId', { nullable: true, description: 'The stock snapshot the rebuild started from (null: none, from the first ledger row; always null without asOf).' }),
    snapshotAt: t.expose('snapshotAt', { type: 'DateTime', nullable: true, description: 'The moment that snapshot holds stock as of.' }),
    ledgerRows: t.exposeInt('ledgerRows', { description: 'Ledger rows of the location read after the snapshot up to asOf (0 without asOf).' }),
  }),
});

const SummaryRef = builder.objectRef<InventorySummary>('InventorySummary').implement({
  description:
    'Stock of one location at a glance, now or as of a past moment. Quantities are summed over the stock lines of the location; ' +
    'as of a moment they are exact, rebuilt from the stock ledger. Levels (min, max), unit costs and lot recalls are as they are now.',
  fields: (t) => ({
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location.', resolve: (s, _args, ctx) => linked(ctx, 'location', s.locationId) }),
    asOf: t.expose('asOf', { type: 'DateTime', description: 'The moment the figures are for: asOf as asked, else the time of the request.' }),
    onHand: t.expose('onHand', { type: 'BigQuantity', description: 'Units physically at the location.' }),
    available: t.expose('available', {
      type: 'BigQuantity',
      description: 'Units that can be promised: per stock line, on hand minus reserved, on hold, picked, recalled and expired (at least 0), and 0 for a line whose lot is recalled or expired before the day of asOf.',
    }),
    reserved: t.expose('reserved', { type: 'BigQuantity', description: 'Units reserved (part of on hand).' }),
    onHold: t.expose('onHold', { type: 'BigQuantity', description: 'Units on hold (part of on hand).' }),
    picked: t.expose('picked', { type: 'BigQuantity', description: 'Units picked and not yet shipped (part of on hand).' }),
    recalled: t.expose('recalled', { type: 'BigQuantity', description: 'Units moved to recalled (part of on hand).' }),
    expired: t.expose('expired', { type: 'BigQuantity', description: 'Units moved to expired (part of on hand).' }),
    inTransit: t.expose('inTransit', {
      type: 'BigQuantity',
      description: 'Units shipped by inventory transfers to this location and not yet received there or returned to their source; in no on hand.',
    }),
    value: t.exposeFloat('value', { description: "On hand × the product's current unitCost, summed (no unitCost counts 0), rounded to 4 decimals." }),
    inTransitValue: t.exposeFloat('inTransitValue', { description: "inTransit × the product's current unitCost, summed, rounded to 4 decimals." }),
    productsBelowMin: t.exposeInt('productsBelowMin', { description: 'Inventory levels of the location with a minQuantity above 0 whose product has fewer units available than it.' }),
    productsAboveMax: t.exposeInt('productsAboveMax', { description: 'Inventory levels of the location with a maxQuantity above 0 whose product has more units available than it.' }),
    productsOutOfStock: t.exposeInt('productsOutOfStock', {
      description: 'Products with an inventory level at the location or a stock line there (created by asOf) that have no unit available.',
    }),
    lotsExpiringSoon: t.exposeInt('lotsExpiringSoon', { description: 'Lots with units on hand at the location that expire from the day of asOf through expiringWithinDays days later (lots already expired not counted).' }),
    unitsExpiringSoon: t.expose('unitsExpiringSoon', { type: 'BigQuantity', description: 'Units on hand of those lots at the location.' }),
    expiringWithinDays: t.exposeInt('expiringWithinDays', { description: 'The window of lotsExpiringSoon, in days (30, as inventory analytics).' }),
    computedFrom: t.field({ type: SourceRef, description: 'How the figures were computed.', resolve: (s) => s.computedFrom }),
  }),
});

builder.queryFields((t) => ({
  inventorySummary: t.field({
    type: SummaryRef,
    description:
      "The inventory summary widget of a location: on hand, available, reserved, on hold, in transit, value, and counts of products below min, above max, out of stock and lots expiring soon; now, or as of a past moment rebuilt from the stock ledger (NOT_FOUND for a location that is not the organization's).",
    authScopes: { permission: 'inventory.read' },
    args: contractArgs(t, inventorySummaryQuery),
    resolve: (_parent, args, ctx) =>
      inventorySummary(ctx, parseInput(inventorySummaryQuery, { ...args, asOf: args.asOf instanceof Date ? args.asOf.toISOString() : args.asOf })),
  }),
}));
