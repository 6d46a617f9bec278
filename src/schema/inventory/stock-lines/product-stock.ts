import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { orgId } from '../../../services/tenant.js';
import { countStockLinesOfProducts } from '../../../services/inventory/stock-lines/stock-line-counts.js';
import { relatedTotalCount } from '../../related-counts.js';

type StockArgs = { locationId?: string | number | null };

// A relation of the product's own query: Pothos loads every product's lines (and what they select) in
// one statement per level, so a page of products with stock costs as many queries as one product. The total
// is counted for the page's products only (the plugin's count would group every line of the organization).
builder.prismaObjectField(ProductType, 'stock', (t) =>
  t.relatedConnection(
    'stockLines',
    {
      description:
        'Stock of the product by location, lot and bin, in id (creation) order, with its availability (needs inventory.read as well).',
      authScopes: { permission: 'inventory.read' },
      cursor: 'id',
      args: { locationId: t.arg.id({ description: 'Only lines at this location.' }) },
      query: (args, ctx) => ({
        where: {
          organizationId: orgId(ctx),
          ...(args.locationId == null ? {} : { locationId: String(args.locationId) }),
        },
        orderBy: { id: 'asc' },
      }),
    },
    {
      fields: (c) => ({
        totalCount: c.int({
          description: 'How many stock lines the product has (at the location, when given), over all pages.',
          resolve: relatedTotalCount(
            (args: StockArgs) => `stock:${args.locationId ?? ''}`,
            (ctx, ids, args) => countStockLinesOfProducts(ctx, ids, args.locationId == null ? null : String(args.locationId)),
          ),
        }),
      }),
    },
  ),
);
