import { z } from 'zod';
import { MAX_PLANNING_DAYS } from '../../kernel/input-limits.js';
import { optionalNumber, optionalText, requiredText, rowObject } from './row-values.js';

/**
 * A SUPPLIERS row. `code` is the supplier's unique identifier in the organization (the upsert key).
 * Absent optional fields take their default when the supplier is created (name: the code) and keep
 * their stored value when it is updated (empty or null counts as absent).
 */
export const supplierRow = rowObject({
  code: requiredText(100).meta({ maxLength: 100, description: 'Unique supplier identifier within the organization (the upsert key).' }),
  name: optionalText(300).meta({ maxLength: 300, description: 'Supplier name; a new supplier without one is named after its code.' }),
  email: z
    .preprocess((v) => (typeof v === 'string' ? v.trim() : v), optionalText(320).pipe(z.email('Must be an email address').optional()))
    .meta({ type: 'string', format: 'email', description: 'Contact email address.' }),
  phone: optionalText(50).meta({ maxLength: 50, description: 'Contact phone number.' }),
  leadTimeDays: optionalNumber({ min: 0, max: MAX_PLANNING_DAYS, integer: true }).meta({ description: 'Usual days from ordering to receiving.' }),
});
