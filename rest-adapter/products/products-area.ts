import type { RestArea } from '../route.js';
import { productRoutes } from './product-routes.js';

export const productsArea: RestArea = {
  routes: productRoutes,
  tags: [{ name: 'Products', description: "The organization's products (product masters): SKU, name, description, unit cost and category." }],
};
