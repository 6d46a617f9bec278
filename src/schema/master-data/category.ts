import { builder } from '../builder.js';
import { categories } from '../../services/master-data/categories.js';
import { defineMasterDataFields } from './master-data-fields.js';
import { NodeRef } from '../node/node-interface.js';

export const CategoryType = builder.prismaObject('Category', {
  interfaces: [NodeRef],
  description: 'A product category of the organization.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Category name, unique within the organization.' }),
    products: t.relatedConnection('products', {
      cursor: 'id',
      totalCount: true,
      query: { orderBy: { id: 'desc' } },
      description: 'Products in this category, newest first, as a Relay connection.',
    }),
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
