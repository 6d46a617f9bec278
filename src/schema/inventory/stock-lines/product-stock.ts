import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { orgId } from '../../../services/tenant.js';

// A relation of the product's own query: Pothos loads every product's lines (and what they select) in
// one statement per level, so a page of products with stock costs as many queries as one product.
builder.prismaObjectField(ProductType, 'stock', (t) =>
  t.relatedConnection('stockLines', {
    description:
      'Stock of the product by location, lot and bin, in id (creation) order, with its availability (needs inventory.read as well).',
    authScopes: { permission: 'inventory.read' },
    cursor: 'id',
    totalCount: true,
    args: { locationId: t.arg.id({ description: 'Only lines at this location.' }) },
    query: (args, ctx) => ({
      where: {
        organizationId: orgId(ctx),
        ...(args.locationId == null ? {} : { locationId: String(args.locationId) }),
      },
      orderBy: { id: 'asc' },
    }),
  }),
);
