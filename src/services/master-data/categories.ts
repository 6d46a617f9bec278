import { categoryCreate, categoryUpdate } from '../../contracts/master-data/reference-inputs.js';
import { masterData } from './master-data.js';

/**
 * Also handed whole to the GraphQL fields. Deleting a category is always allowed: its products
 * become uncategorised (the database sets their categoryId to null).
 */
export const categories = masterData({
  label: 'Category',
  delegate: (db) => db.category,
  uniqueField: 'name',
  searchFields: ['name'],
  contracts: { create: categoryCreate, update: categoryUpdate },
});

export const {
  list: listCategories, get: getCategory, create: createCategory, update: updateCategory, remove: deleteCategory,
} = categories;
