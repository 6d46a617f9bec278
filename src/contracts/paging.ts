import { z } from 'zod';
import { wholeNumberOr } from './query-values.js';

/** page (from 1) and limit (1 to max) of a paged list, with the list's default page size. */
export const pagingShape = ({ limit, max }: { limit: number; max: number }) => ({
  page: wholeNumberOr(1, 'Must be an integer of at least 1', { min: 1 }).meta({ description: 'Page number, from 1.' }),
  limit: wholeNumberOr(limit, `Must be an integer from 1 to ${max}`, { min: 1, max }).meta({ description: 'Page size.' }),
});

export const pagingArgs = (defaults: { limit: number; max: number }) => z.object(pagingShape(defaults));
