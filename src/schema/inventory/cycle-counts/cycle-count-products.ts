import { builder } from '../../builder.js';
import { CYCLE_COUNT_PRODUCT_PAGE, cycleCountProductQuery } from '../../../contracts/inventory/cycle-counts/cycle-count-query.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { AbcClassEnum } from '../levels/levels.js';
import { type CycleCountProduct, cycleCountProducts } from '../../../services/inventory/cycle-counts/product-schedule.js';

const CYCLE_COUNT = { permission: 'inventory.cyclecount' } as const;

const CycleCountProductType = builder.objectRef<CycleCountProduct>('CycleCountProduct').implement({
  description: 'A product at a location in the count schedule: when it was last counted and when it is due.',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product record.', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    sku: t.exposeString('sku', { description: "The product's SKU." }),
    productName: t.exposeString('productName', { description: "The product's name." }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location record.', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    lastCountedDate: t.expose('lastCountedDate', { type: 'Date', nullable: true, description: 'When a count of it was last resolved (null: never counted).' }),
    nextCountDate: t.expose('nextCountDate', { type: 'Date', description: "Last counted date + its class's frequency (C's when unclassified); today when never counted." }),
    isOverdue: t.exposeBoolean('isOverdue', { description: 'The next count date is today or earlier.' }),
    abcClass: t.field({ type: AbcClassEnum, nullable: true, description: 'Its ABC class at the location (null: unclassified).', resolve: (row) => row.abcClass }),
    currentQty: t.exposeInt('currentQty', { description: 'On hand over all its stock lines at the location.' }),
  }),
});

type Page = Awaited<ReturnType<typeof cycleCountProducts>>;

const CycleCountProductPageType = builder.objectRef<Page>('CycleCountProductPage').implement({
  description: 'One page of the count schedule of a location (what GET /api/inventory/cycle-count serves in mode all-products).',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Always all-products.' }),
    products: t.field({ type: [CycleCountProductType], description: 'Products on this page, soonest due first, then by SKU.', resolve: (p) => p.products }),
    count: t.exposeInt('count', { description: 'Products matching the filters in all pages.' }),
    overdueCount: t.exposeInt('overdueCount', { description: 'Of those, the products due today or earlier.' }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    pageSize: t.exposeInt('pageSize', { description: 'Page size (the limit asked for).' }),
    total: t.exposeInt('total', { description: 'The same as count.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
  }),
});

builder.queryFields((t) => {
  const args = (paging: 'pages' | 'window') => contractArgs(t, cycleCountProductQuery, { omit: paging === 'window' ? ['page', 'limit'] : [], types: { locationId: 'ID', categoryId: 'ID', binId: 'ID', abcClass: AbcClassEnum } });
  return {
    cycleCountProducts: t.connection(
      {
        extensions: positionCursors(CYCLE_COUNT_PRODUCT_PAGE.max),
        type: CycleCountProductType,
        description: 'The count schedule of a location: its products, soonest due first, then by SKU, as a Relay connection.',
        authScopes: CYCLE_COUNT,
        args: args('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, CYCLE_COUNT_PRODUCT_PAGE.limit, (window) =>
            cycleCountProducts(ctx, parseInput(cycleCountProductQuery, args), window).then((page) => ({ items: page.products, total: page.total, overdueCount: page.overdueCount })),
          ),
      },
      {
        name: 'CycleCountProductConnection',
        description: 'A page of the count schedule with the cursors to fetch the next or previous page.',
        fields: (c) => ({
          totalCount: c.int({ description: 'Products matching the filters.', resolve: (page) => page.totalCount }),
          overdueCount: c.int({ description: 'Of those, the products due today or earlier.', resolve: (page) => (page as unknown as { overdueCount: number }).overdueCount }),
        }),
      },
    ),
    cycleCountProductsPage: t.field({
      type: CycleCountProductPageType,
      description: "REST adapter's shape (GET /api/inventory/cycle-count, mode all-products): the count schedule by page number.",
      deprecationReason: "The REST adapter's page shape (GET /api/inventory/cycle-count); GraphQL clients use the connection `cycleCountProducts`.",
      authScopes: CYCLE_COUNT,
      args: args('pages'),
      resolve: (_parent, args, ctx) => cycleCountProducts(ctx, parseInput(cycleCountProductQuery, args)),
    }),
  };
});
