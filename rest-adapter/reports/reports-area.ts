import type { RestArea } from '../route.js';
import { expiryRiskRoutes } from './expiry-risk/expiry-risk-routes.js';

export const reportsArea: RestArea = {
  routes: [...expiryRiskRoutes],
  tags: [{ name: 'Reports', description: 'Reports over stock and demand: lots at risk of expiring before they sell.' }],
};
