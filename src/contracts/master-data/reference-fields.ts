import { z } from 'zod';
import { mustBe } from '../parse.js';
import { text } from '../query-values.js';

export const requiredText = (max: number) => z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(max, `At most ${max} characters`);
/** Free-form type labels are stored upper case so that 'store' and 'STORE' are one type. */
export const typeLabel = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(50, 'At most 50 characters').toUpperCase();

/** What creating a location, channel or category accepts; updating accepts the same, each optional (reference-inputs.ts). */
export const locationFields = {
  code: requiredText(50).meta({ description: 'Short code, unique within the organization.' }),
  name: requiredText(200).meta({ description: 'Location name.' }),
  type: typeLabel.optional().meta({ description: 'Kind of location, for example WAREHOUSE or STORE (default WAREHOUSE).' }),
};
export const channelFields = {
  name: requiredText(200).meta({ description: 'Channel name, unique within the organization.' }),
  type: typeLabel.optional().meta({ description: 'Kind of channel, for example ONLINE, RETAIL or WHOLESALE (default OTHER).' }),
};
export const categoryFields = { name: requiredText(200).meta({ description: 'Category name, unique within the organization.' }) };

/** Query of GET /api/inventory/locations and the argument of locations. */
export const locationListQuery = z.object({ search: text.meta({ description: 'Case-insensitive match on location code or name.' }) });
