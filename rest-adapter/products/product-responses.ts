import { z } from 'zod';
import { dateTime, nullableString, pagination } from '../common-responses.js';

export const product = z
  .object({
    id: z.string(),
    sku: z.string(),
    name: z.string(),
    description: nullableString,
    organizationId: z.string(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'Product' });

export const productPage = z.object({ data: z.array(product), meta: pagination });
