import type { RestArea } from '../route.js';
import { planningRecommendationRoutes } from './recommendations/planning-recommendations-routes.js';

export const planningArea: RestArea = {
  routes: [...planningRecommendationRoutes],
  tags: [
    {
      name: 'Planning',
      description:
        'Recommendations from the projection of future stock per product and location (available now, inbound, outbound, expected demand, lead time and the levels): what to order, move or expedite. Needs planning.read.',
    },
  ],
};
