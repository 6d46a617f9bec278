import { authRoutes, authSchemas } from './auth-routes.js';
import { commonSchemas } from './openapi-common.js';
import { productRoutes, productSchemas } from './products-routes.js';
import type { RouteSpec } from './route.js';

/** Every REST route, in matching order (static paths before parameterised ones in each area). */
export const allRoutes: RouteSpec[] = [...authRoutes, ...productRoutes];

export const allSchemas: Record<string, unknown> = { ...commonSchemas, ...authSchemas, ...productSchemas };
