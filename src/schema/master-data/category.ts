import { builder } from '../builder.js';
import { categories } from '../../services/master-data/categories.js';
import { defineMasterDataFields } from './master-data-fields.js';
import { NodeRef } from '../node/node-interface.js';
import { relatedTotalCount } from '../related-counts.js';
import { countProductsOfCategories } from '../../services/master-data/category-product-counts.js';

export const CategoryType = builder.prismaObject('Category', {
  interfaces: [NodeRef],
  description: 'A product category of the organization.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Category name, unique within the organization.' }),
    products: t.relatedConnection(
      'products',
      {
        cursor: 'id',
        query: { orderBy: { id: 'desc' } },
        description: 'Products in this category, newest first, as a Relay connection.',
      },
      {
        // Counted for the categories shown only (the Prisma plugin's count would group the whole catalog).
        fields: (c) => ({
          totalCount: c.int({
            description: 'How many products the category holds, over all pages.',
            resolve: relatedTotalCount(() => 'category-products', (ctx, ids) => countProductsOfCategories(ctx, ids)),
          }),
        }),
      },
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
