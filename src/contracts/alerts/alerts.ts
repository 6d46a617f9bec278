import { z } from 'zod';
import { dateTimeText } from '../date-times.js';
import { mustBe } from '../parse.js';
import { anyCaseEnum, text, wholeNumberOr } from '../query-values.js';
import { optionalNote } from '../text-fields.js';
import { ALERT_KINDS, ALERT_SEVERITIES } from './alert-rules.js';

export const ALERT_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED'] as const;
export const ALERTS_DEFAULT_LIMIT = 50;
export const ALERTS_MAX_LIMIT = 100;

const filterId = (description: string) => text.pipe(z.string().trim().min(1).max(200, 'At most 200 characters').optional()).meta({ description });

/** The filters of GET /api/alerts and of the alerts connection. */
export const alertFilter = z.strictObject({
  status: anyCaseEnum(ALERT_STATUSES).meta({ description: `Only alerts in this state: ${ALERT_STATUSES.join(', ')} (any case).` }),
  kind: anyCaseEnum(ALERT_KINDS).meta({ description: `Only alerts of this kind: ${ALERT_KINDS.join(', ')} (any case).` }),
  severity: anyCaseEnum(ALERT_SEVERITIES).meta({ description: `Only alerts of this severity: ${ALERT_SEVERITIES.join(', ')} (any case).` }),
  locationId: filterId('Only alerts at this location (404 when it is not one of the organization).'),
  productId: filterId('Only alerts of this product (404 when it is not one of the organization).'),
  since: dateTimeText.meta({ description: 'Only alerts last seen at or after this instant (ISO 8601 date-time).' }),
});

/** Query of GET /api/alerts. */
export const alertListQuery = z.strictObject({
  ...alertFilter.shape,
  limit: wholeNumberOr(ALERTS_DEFAULT_LIMIT, `Must be a whole number from 1 to ${ALERTS_MAX_LIMIT}`, { min: 1, max: ALERTS_MAX_LIMIT }).meta({
    description: `Page size (default ${ALERTS_DEFAULT_LIMIT}, at most ${ALERTS_MAX_LIMIT}).`,
  }),
  offset: wholeNumberOr(0, 'Must be a whole number from 0 to 100000', { min: 0, max: 100_000 }).meta({ description: 'Alerts to skip (default 0).' }),
});

const alertId = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters').meta({ description: 'The alert (404 when it is not one of the organization).' });

/** Body of POST /api/alerts/{id}/acknowledge: nothing, or an empty object. */
export const alertNoBody = z.strictObject({});

/** Body of POST /api/alerts/{id}/resolve. */
export const alertResolveBody = z.strictObject({ note: optionalNote(1000).meta({ description: 'Why it is resolved, up to 1,000 characters.' }) });

/** Input of acknowledgeAlert. */
export const alertAcknowledge = z.strictObject({ id: alertId });

/** Input of resolveAlert. */
export const alertResolve = z.strictObject({ id: alertId, ...alertResolveBody.shape });
