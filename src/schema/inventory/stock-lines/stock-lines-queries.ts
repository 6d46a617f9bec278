import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../builder.js';
import { StockLineType } from './stock-line.js';
import { countStockLines, findStockLines, getStockLine, listStockLines } from '../../../services/inventory/stock-lines/stock-lines.js';

type StockLinePage = Awaited<ReturnType<typeof listStockLines>>;

const StockLinePageType = builder.objectRef<StockLinePage>('StockLinePage').implement({
  description: 'One page of stock lines with paging totals (what GET /api/inventory serves).',
  fields: (t) => ({
    items: t.field({ type: [StockLineType], description: 'Stock lines on this page, in id (creation) order.', resolve: (p) => p.items }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    pageSize: t.exposeInt('pageSize', { description: 'Page size (the limit asked for).' }),
    total: t.exposeInt('total', { description: 'Stock lines matching the filters in all pages.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
  }),
});

const filterDescriptions = {
  locationId: 'Only lines at this location (404 when it is not one of the organization\'s).',
  productMasterId: 'Only lines of this product (404 when it is not one of the organization\'s).',
  lotId: 'Only lines in this lot (404 when it is not one of the organization\'s).',
  binId: 'Only lines in this bin (404 when it is not one of the organization\'s).',
  search: 'Case-insensitive match on the product\'s SKU or name.',
};

const asString = (value: string | number | null | undefined) => (value == null ? null : String(value));

builder.queryFields((t) => {
  const filterArgs = {
    locationId: t.arg.id({ description: filterDescriptions.locationId }),
    productMasterId: t.arg.id({ description: filterDescriptions.productMasterId }),
    lotId: t.arg.id({ description: filterDescriptions.lotId }),
    binId: t.arg.id({ description: filterDescriptions.binId }),
    search: t.arg.string({ description: filterDescriptions.search }),
  };
  type FilterArgs = { locationId?: string | number | null; productMasterId?: string | number | null; lotId?: string | number | null; binId?: string | number | null; search?: string | null };
  const filterOf = (args: FilterArgs) => ({
    locationId: asString(args.locationId),
    productMasterId: asString(args.productMasterId),
    lotId: asString(args.lotId),
    binId: asString(args.binId),
    search: args.search,
  });
  return {
    stockLines: t.prismaConnection({
      type: 'StockLine',
      cursor: 'id',
      description: 'Stock lines (inventory items) of the organization in id order, as a Relay connection.',
      authScopes: { permission: 'inventory.read' },
      args: filterArgs,
      totalCount: (_parent, args, ctx) => countStockLines(ctx, filterOf(args)),
      resolve: (query, _parent, args, ctx) => findStockLines(ctx, filterOf(args), query),
    }),
    stockLinesPage: t.field({
      type: StockLinePageType,
      description: "REST adapter's shape (GET /api/inventory): stock lines by page number.",
      deprecationReason: "The REST adapter's page shape (GET /api/inventory); GraphQL clients use the connection `stockLines`.",
      authScopes: { permission: 'inventory.read' },
      args: {
        ...filterArgs,
        page: t.arg.int({ description: 'Page number, from 1 (default 1).' }),
        limit: t.arg.int({ description: 'Page size, 1 to 200 (default 20).' }),
      },
      resolve: (_parent, args, ctx, info) =>
        listStockLines(ctx, { ...filterOf(args), page: args.page, limit: args.limit }, queryFromInfo({ context: ctx, info, path: ['items'], typeName: 'StockLine' })),
    }),
    stockLine: t.prismaField({
      type: 'StockLine',
      description: "One stock line by id; null when it is unknown or not the organization's.",
      orNullWhenAbsent: true,
      authScopes: { permission: 'inventory.read' },
      args: { id: t.arg.id({ required: true, description: 'Stock line (inventory item) id.' }) },
      resolve: (query, _parent, args, ctx) => getStockLine(ctx, String(args.id), query),
    }),
  };
});
