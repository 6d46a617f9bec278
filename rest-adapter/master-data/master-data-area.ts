import type { RestArea } from '../route.js';
import { locationRoutes } from './location-routes.js';

/** Reference data of the organization; over REST only its locations, listed under the Inventory tag. */
export const masterDataArea: RestArea = { routes: locationRoutes, tags: [] };
