import { z } from 'zod';
import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { dateTimeText, windowWithin } from '../../date-times.js';
import { anyCaseEnum, text, wholeNumber } from '../../query-values.js';

export const FORECAST_CHANGE_KINDS = ['GENERATE', 'PUBLISH', 'OVERRIDE', 'ARCHIVE'] as const;

/** Largest page of GET /api/forecast/change-history. */
export const CHANGE_HISTORY_MAX_LIMIT = 500;
export const CHANGE_HISTORY_DEFAULT_LIMIT = 50;

const kind = anyCaseEnum(FORECAST_CHANGE_KINDS);

/** Query of GET /api/forecast/change-history and arguments of forecastChanges. */
export const forecastChangeQuery = z
  .object({
    scenarioId: text.meta({ description: 'Only changes of this scenario (404 when it is not one of the organization).' }),
    kind: kind.meta({ description: 'Only changes of this kind.' }),
    productMasterId: text.meta({ description: 'Only changes of this product (404 when it is not one of the organization).' }),
    locationId: text.meta({ description: 'Only changes at this location (404 when it is not one of the organization).' }),
    from: dateTimeText.meta({ description: 'Changes made at or after this date-time.' }),
    to: dateTimeText.meta({ description: `Changes made at or before this date-time; not before from, at most ${MAX_WINDOW_DAYS} days after it.` }),
    limit: wholeNumber(`Must be a whole number from 1 to ${CHANGE_HISTORY_MAX_LIMIT}`, { min: 1, max: CHANGE_HISTORY_MAX_LIMIT }).meta({
      description: `Page size (default ${CHANGE_HISTORY_DEFAULT_LIMIT}).`,
    }),
    offset: wholeNumber('Must be a whole number, 0 or more', { min: 0 }).meta({ description: 'Rows to skip (default 0).' }),
  })
  .superRefine((query, issue) => {
    if (query.from && query.to && new Date(query.to) < new Date(query.from)) issue.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
  })
  .superRefine(windowWithin('from', 'to'));
