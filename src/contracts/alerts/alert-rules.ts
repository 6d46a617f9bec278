import { z } from 'zod';
import { mustBe } from '../parse.js';

export const ALERT_KINDS = [
  'AVAILABLE_BELOW_MIN',
  'IMPORT_FAILED',
  'STOCK_REQUESTS_WAITING',
  'LOTS_EXPIRING',
  'CHANNEL_ATP_CRITICAL',
  'CYCLE_COUNT_OVERDUE',
  'RECOMMENDATIONS_WAITING',
  'FORECAST_ACCURACY_DEGRADED',
] as const;
export const ALERT_SEVERITIES = ['INFO', 'WARNING', 'CRITICAL'] as const;
export type AlertKindName = (typeof ALERT_KINDS)[number];

/** What a rule's threshold means per kind, and its bounds; null: the kind takes none. */
export const THRESHOLDS: Record<AlertKindName, { unit: string; min: number; max: number } | null> = {
  AVAILABLE_BELOW_MIN: null,
  IMPORT_FAILED: null,
  STOCK_REQUESTS_WAITING: { unit: 'hours', min: 1, max: 720 },
  LOTS_EXPIRING: { unit: 'days', min: 1, max: 365 },
  CHANNEL_ATP_CRITICAL: null,
  CYCLE_COUNT_OVERDUE: { unit: 'days past the due date', min: 0, max: 365 },
  RECOMMENDATIONS_WAITING: { unit: 'hours', min: 1, max: 720 },
  FORECAST_ACCURACY_DEGRADED: { unit: 'WAPE in percent', min: 1, max: 1000 },
};

/** Kinds whose alerts concern a product at a location: the only ones a product, location or category scope applies to. */
export const SCOPED_KINDS: readonly AlertKindName[] = ALERT_KINDS.filter((kind) => kind !== 'IMPORT_FAILED');
/** Of those, the kinds a product or category scope applies to (a stock request has several products). */
export const PRODUCT_SCOPED_KINDS: readonly AlertKindName[] = SCOPED_KINDS.filter((kind) => kind !== 'STOCK_REQUESTS_WAITING');

export const MAX_RULES = 200;

const id = (description: string) => z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters').nullish().meta({ description });
const thresholdText = Object.entries(THRESHOLDS)
  .map(([kind, t]) => (t ? `${kind}: ${t.unit}, ${t.min} to ${t.max}` : `${kind}: none`))
  .join('; ');

const ruleFields = {
  threshold: z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(0, 'At least 0')
    .max(8760, 'At most 8760')
    .nullish()
    .meta({ description: `What the kind measures against (${thresholdText}).` }),
  locationId: id('Only this location (404 when it is not one of the organization).'),
  productId: id('Only this product (every kind but IMPORT_FAILED and STOCK_REQUESTS_WAITING; 404 when it is not one of the organization).'),
  categoryId: id("Only products of this category (every kind but IMPORT_FAILED and STOCK_REQUESTS_WAITING; 404 when it is not one of the organization's)."),
  severity: z.enum(ALERT_SEVERITIES, { error: `One of ${ALERT_SEVERITIES.join(', ')}` }).optional().meta({ description: 'INFO, WARNING (default) or CRITICAL: copied to its alerts.' }),
  enabled: z.boolean({ error: mustBe('true or false') }).optional().meta({ description: 'Whether it raises alerts (default true); a disabled rule raises none and resolves none.' }),
};

/** Body of POST /api/alerts/rules and input of createAlertRule. */
export const alertRuleCreate = z.strictObject({
  kind: z.enum(ALERT_KINDS, { error: `One of ${ALERT_KINDS.join(', ')}` }).meta({ description: `What the rule watches: ${ALERT_KINDS.join(', ')}.` }),
  ...ruleFields,
});

/** Body of PATCH /api/alerts/rules/{id}: the kind stays. */
export const alertRuleChanges = z.strictObject(ruleFields).meta({ description: 'Absent fields stay as they are; null clears threshold or a scope.' });

const ruleId = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters').meta({ description: 'The rule (404 when it is not one of the organization).' });

/** Input of updateAlertRule. */
export const alertRuleUpdate = z.strictObject({ id: ruleId, ...ruleFields });

/** Input of deleteAlertRule. */
export const alertRuleRef = z.strictObject({ id: ruleId });
