import { z } from 'zod';

export const location = z
  .object({
    id: z.string(),
    code: z.string().describe('Short code, unique within the organization.'),
    name: z.string(),
    type: z.string().describe('Kind of location, upper case, for example WAREHOUSE or STORE.'),
  })
  .meta({ id: 'Location' });

export const locationList = z.object({ locations: z.array(location), data: z.array(location) });
