import { z } from 'zod';
import { ALERT_KINDS, ALERT_SEVERITIES } from '../../src/contracts/alerts/alert-rules.js';
import { ALERT_STATUSES } from '../../src/contracts/alerts/alerts.js';
import { dateTime, integer, nullableString } from '../common-responses.js';

export const alertRule = z
  .object({
    id: z.string(),
    kind: z.enum(ALERT_KINDS),
    threshold: integer.nullable().describe('Hours for STOCK_REQUESTS_WAITING, days for LOTS_EXPIRING; null for the kinds without one.'),
    locationId: nullableString.describe('Only this location (null: every location).'),
    productId: nullableString.describe('Only this product (null: every product).'),
    categoryId: nullableString.describe('Only products of this category (null: every category).'),
    severity: z.enum(ALERT_SEVERITIES),
    enabled: z.boolean(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'AlertRule', description: 'What the organization wants to be alerted about.' });

export const alertRuleList = z.object({ data: z.array(alertRule) });

export const alert = z
  .object({
    id: z.string(),
    ruleId: z.string(),
    kind: z.enum(ALERT_KINDS),
    severity: z.enum(ALERT_SEVERITIES),
    status: z.enum(ALERT_STATUSES),
    productId: nullableString.describe('The product it concerns (null: none).'),
    locationId: nullableString.describe('The location it concerns (null: none).'),
    subjectType: z.string().describe('What caused it: STOCK_LINE, IMPORT_JOB, STOCK_REQUEST, LOT, TRANSFER_RECOMMENDATION (the oldest waiting), LOCATION (its overdue counts) or FORECAST_RUN (the run measured).'),
    subjectId: z.string().describe('The id of that record.'),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).describe('The measure against the threshold.'),
    firstSeenAt: dateTime,
    lastSeenAt: dateTime,
    occurrences: integer.describe('Different measures (details) that found the condition true while it was open (1 when raised).'),
    acknowledgedAt: dateTime.nullable(),
    acknowledgedByType: nullableString.describe('USER or API_KEY.'),
    acknowledgedBy: nullableString,
    resolvedAt: dateTime.nullable(),
    resolvedByType: nullableString.describe('SYSTEM (the condition cleared), USER or API_KEY.'),
    resolvedBy: nullableString,
    resolutionNote: nullableString,
  })
  .meta({ id: 'Alert', description: "A rule's condition found true for one key, with its cause and measure." });

export const alertList = z.object({ data: z.array(alert), total: integer, limit: integer, offset: integer }).describe('A page of alerts, newest first.');
