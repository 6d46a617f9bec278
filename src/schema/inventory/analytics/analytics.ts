import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { builder } from '../../builder.js';
import { inventoryAnalytics, type CategoryAnalytics, type InventoryAnalytics } from '../../../services/inventory/analytics/analytics.js';
import { CategoryType } from '../../master-data/category.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';

const CategoryAnalyticsType = builder.objectRef<CategoryAnalytics>('InventoryCategoryAnalytics').implement({
  description: 'Stock value and units of one product category (categoryId and categoryName null for products without one).',
  fields: (t) => ({
    categoryId: t.exposeID('categoryId', { nullable: true, description: 'Category id, null for products without a category.' }),
    category: t.field({ type: CategoryType, nullable: true, authScopes: readScopesOf('Category'), description: 'The category (null for products without one).', resolve: (row, _args, ctx) => linked(ctx, 'category', row.categoryId) }),
    categoryName: t.exposeString('categoryName', { nullable: true, description: 'Category name, null for products without a category.' }),
    value: t.exposeFloat('value', { description: 'On hand × unit cost, summed over the category.' }),
    units: t.expose('units', { type: 'BigQuantity', description: 'On hand units of the category.' }),
  }),
});

const InventoryAnalyticsType = builder.objectRef<InventoryAnalytics>('InventoryAnalytics').implement({
  description: 'Stock value, turnover, slow-moving and expiring counts for a period.',
  fields: (t) => ({
    totalValue: t.exposeFloat('totalValue', { description: 'On hand × product unitCost, summed (no unitCost counts 0).' }),
    totalUnits: t.expose('totalUnits', { type: 'BigQuantity', description: 'On hand units now.' }),
    turnoverRate: t.exposeFloat('turnoverRate', {
      description:
        'Outbound units in the period ÷ average on hand ((on hand at from + on hand at to) ÷ 2, from the ledger); per period, ' +
        'not annualised; 0 when the average is 0. Outbound: negative on-hand ledger changes except lot corrections and bin moves.',
    }),
    averageDaysOnHand: t.exposeFloat('averageDaysOnHand', {
      nullable: true,
      description: 'Days in the period ÷ turnoverRate; null when turnoverRate is 0.',
    }),
    slowMovingItems: t.exposeInt('slowMovingItems', { description: 'Product-location pairs with stock on hand and no outbound movement in the period.' }),
    expiringItems: t.exposeInt('expiringItems', { description: 'Stock lines with stock on hand whose lot expires within the next 30 days (not yet expired).' }),
    inTransitUnits: t.expose('inTransitUnits', { type: 'BigQuantity',
      description: 'Units shipped by IN_TRANSIT inventory transfers and not yet received (with locationId: those heading to it); in no on hand.',
    }),
    inTransitValue: t.exposeFloat('inTransitValue', { description: 'inTransitUnits × product unitCost, summed.' }),
    byCategory: t.field({ type: [CategoryAnalyticsType], description: 'Value and units per category, highest value first.', resolve: (a) => a.byCategory }),
  }),
});

const PeriodType = builder.objectRef<{ from: Date; to: Date }>('InventoryAnalyticsPeriod').implement({
  description: 'The period analysed (both ends included).',
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime', description: 'Start of the period.' }),
    to: t.expose('to', { type: 'DateTime', description: 'End of the period.' }),
  }),
});

const ReportType = builder.objectRef<{ analytics: InventoryAnalytics; period: { from: Date; to: Date } }>('InventoryAnalyticsReport').implement({
  description: 'Inventory analytics with the period they cover.',
  fields: (t) => ({
    analytics: t.field({ type: InventoryAnalyticsType, description: 'The figures.', resolve: (r) => r.analytics }),
    period: t.field({ type: PeriodType, description: 'The period.', resolve: (r) => r.period }),
  }),
});

builder.queryFields((t) => ({
  inventoryAnalytics: t.field({
    type: ReportType,
    description: 'Inventory value, turnover, days on hand, slow-moving and expiring counts, and value by category, for a period.',
    authScopes: { permission: 'inventory.read' },
    args: {
      locationId: t.arg.id({ description: 'Only this location (404 when it is not the organization’s).' }),
      categoryId: t.arg.id({ description: 'Only products of this category (404 when it is not the organization’s).' }),
      fromDate: t.arg.string({ description: 'Start, an ISO 8601 date or date-time (default toDate minus 30 days).' }),
      toDate: t.arg.string({ description: `End, an ISO 8601 date (the whole day, UTC) or date-time with a time zone (default now); at most ${MAX_WINDOW_DAYS} days after fromDate.` }),
    },
    resolve: (_parent, args, ctx) =>
      inventoryAnalytics(ctx, {
        locationId: args.locationId == null ? null : String(args.locationId),
        categoryId: args.categoryId == null ? null : String(args.categoryId),
        fromDate: args.fromDate,
        toDate: args.toDate,
      }),
  }),
}));
