import { z } from 'zod';
import { categoryFields, channelFields, locationFields } from './reference-fields.js';

type Fields = Record<string, z.ZodType>;
type NullMeansAbsent<F extends Fields> = { [K in keyof F]: z.ZodOptional<z.ZodNullable<F[K]>> };

/** The fields, each optional; null means "not given" (GraphQL sends it for an absent field) and never clears one. */
function updateOf<F extends Fields>(fields: F) {
  const optional = Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.nullish()])) as NullMeansAbsent<F>;
  return z
    .object(optional)
    .transform((input) => Object.fromEntries(Object.entries(input).filter(([, value]) => value != null)) as { [K in keyof F]?: z.output<F[K]> });
}

/** Input of createLocation (and of the operator's door, the admin CLI and the demo seed). */
export const locationCreate = z.object(locationFields);
/** Input of updateLocation. */
export const locationUpdate = updateOf(locationFields);

/** Input of createChannel (and of the operator's door). */
export const channelCreate = z.object(channelFields);
/** Input of updateChannel. */
export const channelUpdate = updateOf(channelFields);

/** Input of createCategory (and of the demo seed). */
export const categoryCreate = z.object(categoryFields);
/** Input of updateCategory. */
export const categoryUpdate = updateOf(categoryFields);
