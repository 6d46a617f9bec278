import { z } from 'zod';
import { text } from '../../query-values.js';

/** Query of GET /api/planning/recommendations and arguments of planningRecommendations. */
export const planningRecommendationQuery = z.object({
  locationId: text.pipe(z.string({ error: 'Required' }).trim().min(1, 'Required')).meta({
    description: "The location planned (required; 404 when it is not one of the organization's).",
  }),
});
