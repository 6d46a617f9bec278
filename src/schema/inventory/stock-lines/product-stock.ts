import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { StockLineType } from './stock-line.js';
import { countStockLinesOfProducts } from '../../../services/inventory/stock-lines/stock-line-counts.js';
import { stockLinesOfProducts } from '../../../services/inventory/stock-lines/stock-lines-of-products.js';
import { relatedTotalCount } from '../../related-counts.js';
import { relatedIdConnection } from '../../related-id-connection.js';

type StockArgs = { locationId?: string | number | null };

const locationOf = (args: StockArgs) => (args.locationId == null ? null : String(args.locationId));

// Not a relation of the product's own query: the Prisma plugin would read every line of the page's products
// (it cuts each product's list to the page in memory) and map each through Prisma's result handling. Here one
// statement reads a page of lines per product for every product of the request (a lateral LIMIT), and the total
// is counted for the page's products only. A line's own relations (lot, location, …) are loaded by the plugin,
// one statement per relation for all lines.
builder.prismaObjectField(ProductType, 'stock', (t) =>
  t.connection(
    {
      type: StockLineType,
      description:
        'Stock of the product by location, lot and bin, in id (creation) order, with its availability (needs inventory.read as well).',
      authScopes: { permission: 'inventory.read' },
      args: { locationId: t.arg.id({ description: 'Only lines at this location.' }) },
      resolve: async (product, args, ctx, info) => ({
        parent: product,
        args,
        ...(await relatedIdConnection(ctx, `stock:${locationOf(args) ?? ''}`, product.id, args, 'asc', info, (ids, window) =>
          stockLinesOfProducts(ctx, ids, { ...window, locationId: locationOf(args) }),
        )),
      }),
    },
    {
      name: 'ProductStockConnection',
      fields: (c) => ({
        totalCount: c.int({
          description: 'How many stock lines the product has (at the location, when given), over all pages.',
          resolve: relatedTotalCount(
            (args: StockArgs) => `stock:${args.locationId ?? ''}`,
            (ctx, ids, args) => countStockLinesOfProducts(ctx, ids, locationOf(args)),
          ),
        }),
      }),
    },
    { name: 'ProductStockConnectionEdge' },
  ),
);
