import type { RestArea } from '../route.js';
import { apiKeyRoutes, apiKeySchemas } from './api-key-routes.js';

/** Listed under Administration, the tag rest-adapter/openapi.ts describes (it also holds the description itself). */
export const apiKeysArea: RestArea = { routes: apiKeyRoutes, schemas: apiKeySchemas, tags: [] };
