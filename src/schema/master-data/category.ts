import { builder } from '../builder.js';
import { categories } from '../../services/master-data/categories.js';
import { defineMasterDataFields } from './master-data-fields.js';
import { NodeRef } from '../node/node-interface.js';
import { relatedTotalCount } from '../related-counts.js';
import { countProductsOfCategories } from '../../services/master-data/category-product-counts.js';
import { productsOfCategories } from '../../services/products/products-of-categories.js';
import { relatedIdConnection } from '../related-id-connection.js';
import { ProductType } from '../products/product.js';
import type { ProductMaster } from '../../generated/prisma/client.js';

export const CategoryType = builder.prismaObject('Category', {
  interfaces: [NodeRef],
  description: 'A product category of the organization.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Category name, unique within the organization.' }),
    // Not a relation of the categories' query: the Prisma plugin would read every product of the categories shown
    // and cut each list to the page in memory. One statement reads a page per category on (categoryId, id).
    products: t.connection(
      {
        type: ProductType,
        description: 'Products in this category, newest first, as a Relay connection.',
        resolve: async (category, args, ctx, info) => ({
          parent: category,
          args,
          // A list's unit cost may be a number (asProducts, products/product.ts).
          ...(await relatedIdConnection(ctx, 'category-products', category.id, args, 'desc', info, (ids, window) => productsOfCategories(ctx, ids, window) as Promise<Map<string, ProductMaster[]>>)),
        }),
      },
      {
        name: 'CategoryProductsConnection',
        // Counted for the categories shown only (the Prisma plugin's count would group the whole catalog).
        fields: (c) => ({
          totalCount: c.int({
            description: 'How many products the category holds, over all pages.',
            resolve: relatedTotalCount(() => 'category-products', (ctx, ids) => countProductsOfCategories(ctx, ids)),
          }),
        }),
      },
      { name: 'CategoryProductsConnectionEdge' },
    ),
  }),
});

defineMasterDataFields({
  model: 'Category',
  singular: 'category',
  plural: 'categories',
  read: 'products.read',
  write: 'categories.write',
  searchDescription: 'Case-insensitive match on name.',
  service: categories,
});
