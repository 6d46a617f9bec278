import { builder } from '../../builder.js';
import { CYCLE_COUNT_PRODUCT_PAGE, RECENT_VARIANCE_DAYS, cycleCountSuggestionQuery } from '../../../contracts/inventory/cycle-counts/cycle-count-query.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { AbcClassEnum } from '../levels/levels.js';
import { type CycleCountSuggestion, cycleCountSuggestions } from '../../../services/inventory/cycle-counts/suggestions.js';

const CYCLE_COUNT = { permission: 'inventory.cyclecount' } as const;

const ORDER =
  'overdue first (next count date today or earlier; never counted is due today), by ABC class (A, B, then C and unclassified) and the value of on hand ' +
  `(highest first, no cost last); then products an accepted count corrected in the last ${RECENT_VARIANCE_DAYS} days, by class and value; then the rest by next count date, class and value`;

const SuggestionReasonEnum = builder.enumType('CycleCountSuggestionReason', {
  description: 'Why a product is suggested for counting.',
  values: {
    OVERDUE: { description: 'Its next count date is today or earlier.' },
    NEVER_COUNTED: { description: 'No count of it at the location was ever accepted (so it is due today).' },
    RECENT_VARIANCE: { description: `An accepted count corrected its on hand at the location in the last ${RECENT_VARIANCE_DAYS} days.` },
  } as const,
});

const SuggestionType = builder.objectRef<CycleCountSuggestion>('CycleCountSuggestion').implement({
  description: 'A product to count next at a location, with what ranks it.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'Place in the ranking, from 1 (a batch with `suggested: N` takes ranks 1 to N).' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product record.', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    sku: t.exposeString('sku', { description: "The product's SKU." }),
    productName: t.exposeString('productName', { description: "The product's name." }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location record.', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    abcClass: t.field({ type: AbcClassEnum, nullable: true, description: 'Its ABC class at the location (null: unclassified, ranked as C).', resolve: (row) => row.abcClass }),
    lastCountedDate: t.expose('lastCountedDate', { type: 'Date', nullable: true, description: 'When a count of it was last resolved (null: never counted).' }),
    nextCountDate: t.expose('nextCountDate', { type: 'Date', description: "Last counted date + its class's frequency (C's when unclassified); today when never counted." }),
    isOverdue: t.exposeBoolean('isOverdue', { description: 'The next count date is today or earlier.' }),
    currentQty: t.exposeInt('currentQty', { description: 'On hand over all its stock lines at the location.' }),
    unitCost: t.exposeFloat('unitCost', { nullable: true, description: "The product's unit cost (null: none known)." }),
    value: t.exposeFloat('value', { nullable: true, description: 'currentQty × unitCost (null without a cost).' }),
    recentVariances: t.exposeInt('recentVariances', { description: `Accepted counts that corrected its on hand at the location in the last ${RECENT_VARIANCE_DAYS} days.` }),
    lastVarianceAt: t.expose('lastVarianceAt', { type: 'DateTime', nullable: true, description: 'When the last of those was resolved.' }),
    reasons: t.field({ type: [SuggestionReasonEnum], description: 'Why it is suggested (empty: only next by the schedule).', resolve: (row) => row.reasons }),
  }),
});

type Page = Awaited<ReturnType<typeof cycleCountSuggestions>>;

const SuggestionPageType = builder.objectRef<Page>('CycleCountSuggestionPage').implement({
  description: 'One page of the suggestions of a location (what GET /api/inventory/cycle-count serves in mode suggestions).',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Always suggestions.' }),
    suggestions: t.field({ type: [SuggestionType], description: `This page of the ranking: ${ORDER}.`, resolve: (p) => p.suggestions }),
    count: t.exposeInt('count', { description: 'Products that could be suggested, in all pages: those with a stock line at the location and in no open count line.' }),
    overdueCount: t.exposeInt('overdueCount', { description: 'Of those, the overdue ones.' }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    pageSize: t.exposeInt('pageSize', { description: 'Page size (the limit asked for).' }),
    total: t.exposeInt('total', { description: 'The same as count.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
  }),
});

builder.queryFields((t) => {
  const args = (paging: 'pages' | 'window') => contractArgs(t, cycleCountSuggestionQuery, { omit: paging === 'window' ? ['page', 'limit'] : [], types: { locationId: 'ID' } });
  return {
    cycleCountSuggestions: t.connection(
      {
        extensions: positionCursors(CYCLE_COUNT_PRODUCT_PAGE.max),
        type: SuggestionType,
        description:
          `What to count next at a location, as a Relay connection: the products with a stock line there that no open count line covers, ${ORDER}. ` +
          'createCycleCountBatch with `suggested: N` counts the first N of this very ranking.',
        authScopes: CYCLE_COUNT,
        args: args('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, CYCLE_COUNT_PRODUCT_PAGE.limit, (window) =>
            cycleCountSuggestions(ctx, parseInput(cycleCountSuggestionQuery, args), window).then((page) => ({ items: page.suggestions, total: page.total, overdueCount: page.overdueCount })),
          ),
      },
      {
        name: 'CycleCountSuggestionConnection',
        description: 'A page of the suggestions with the cursors to fetch the next or previous page.',
        fields: (c) => ({
          totalCount: c.int({ description: 'Products that could be suggested.', resolve: (page) => page.totalCount }),
          overdueCount: c.int({ description: 'Of those, the overdue ones.', resolve: (page) => (page as unknown as { overdueCount: number }).overdueCount }),
        }),
      },
    ),
    cycleCountSuggestionsPage: t.field({
      type: SuggestionPageType,
      description: "REST adapter's shape (GET /api/inventory/cycle-count, mode suggestions): the ranking by page number.",
      deprecationReason: "The REST adapter's page shape (GET /api/inventory/cycle-count?mode=suggestions); GraphQL clients use the connection `cycleCountSuggestions`.",
      authScopes: CYCLE_COUNT,
      args: args('pages'),
      resolve: (_parent, args, ctx) => cycleCountSuggestions(ctx, parseInput(cycleCountSuggestionQuery, args)),
    }),
  };
});
