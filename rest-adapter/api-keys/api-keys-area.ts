import type { RestArea } from '../route.js';
import { apiKeyRoutes } from './api-key-routes.js';

/** Listed under Administration, the tag rest-adapter/openapi.ts describes (it also holds the description itself). */
export const apiKeysArea: RestArea = { routes: apiKeyRoutes, tags: [] };
