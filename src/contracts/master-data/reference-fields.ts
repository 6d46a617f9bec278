import { z } from 'zod';
import { mustBe } from '../parse.js';
import { text } from '../query-values.js';

export const requiredText = (max: number) => z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(max, `At most ${max} characters`);
/** Free-form type labels are stored upper case so that 'store' and 'STORE' are one type. */
export const typeLabel = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(50, 'At most 50 characters').toUpperCase();

/** What creating a location, channel or category accepts; updating accepts the same, each optional. */
export const locationFields = { code: requiredText(50), name: requiredText(200), type: typeLabel.optional() };
export const channelFields = { name: requiredText(200), type: typeLabel.optional() };
export const categoryFields = { name: requiredText(200) };

/** Query of GET /api/inventory/locations and the argument of locations. */
export const locationListQuery = z.object({ search: text.meta({ description: 'Case-insensitive match on location code or name.' }) });
