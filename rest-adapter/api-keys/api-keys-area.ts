import type { RestArea } from '../route.js';
import { apiKeyRoutes, apiKeySchemas } from './api-key-routes.js';

export const apiKeysArea: RestArea = {
  routes: apiKeyRoutes,
  schemas: apiKeySchemas,
  tags: [{ name: 'Administration', description: 'API keys of the organization (managed by a signed-in ADMIN) and this machine-readable description.' }],
};
