import { z } from 'zod';
import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { calendarDateText, windowWithin } from '../../date-times.js';
import { mustBe } from '../../parse.js';
import { flag, text, wholeNumber } from '../../query-values.js';

/** Largest page of GET /api/forecast/overrides. */
export const OVERRIDES_MAX_LIMIT = 500;
export const OVERRIDES_DEFAULT_LIMIT = 50;

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');
const isMonday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() === 1;

/** Body of PUT /api/forecast/overrides and input of setForecastOverride. */
export const forecastOverrideSet = z.strictObject({
  productMasterId: id.meta({ description: 'The product of the series (refused, naming the field, when it is not one of the organization).' }),
  locationId: id.meta({ description: 'The location of the series (refused, naming the field, when it is not one of the organization).' }),
  channel: z
    .string({ error: mustBe('text') })
    .trim()
    .min(1, 'Must not be empty')
    .max(100, 'At most 100 characters')
    .nullish()
    .meta({ description: 'Channel label of the series, as in the demand history (default ALL).' }),
  periodStart: calendarDateText.refine(isMonday, 'Must be a Monday (the first day of an ISO week)').meta({ description: 'The week overridden: its Monday.' }),
  quantity: z
    .number({ error: mustBe('a number') })
    .min(0, 'Must be 0 or more')
    .max(1e12, 'Must be at most 1000000000000')
    .meta({ description: 'The forecast of that week, in units, winning over the model.' }),
  scenarioId: id
    .nullish()
    .meta({
      description:
        'Only for this scenario (refused, naming the field, when it is not one of the organization; INVALID_STATE when PUBLISHED or ARCHIVED). Absent: the base forecast, and every scenario without its own override of the point.',
    }),
  note: z.string({ error: mustBe('text') }).max(2000, 'At most 2000 characters').nullish().meta({ description: 'Why, in words; kept in the change history too.' }),
});

/** Query of GET /api/forecast/overrides and arguments of forecastOverrides. */
export const forecastOverrideListQuery = z
  .object({
    productMasterId: text.meta({ description: 'Only overrides of this product (404 when it is not one of the organization).' }),
    locationId: text.meta({ description: 'Only overrides at this location (404 when it is not one of the organization).' }),
    channel: text.meta({ description: 'Only overrides of this channel label.' }),
    scenarioId: text.meta({ description: 'Only overrides of this scenario (404 when it is not one of the organization).' }),
    baseOnly: flag.meta({ description: 'Only base overrides (no scenario); not together with scenarioId.' }),
    from: text.pipe(calendarDateText.optional()).meta({ format: 'date', description: 'Only weeks starting on or after this date.' }),
    to: text.pipe(calendarDateText.optional()).meta({ format: 'date', description: `Only weeks starting on or before this date; not before from, at most ${MAX_WINDOW_DAYS} days after it.` }),
    limit: wholeNumber(`Must be a whole number from 1 to ${OVERRIDES_MAX_LIMIT}`, { min: 1, max: OVERRIDES_MAX_LIMIT }).meta({
      description: `Page size (default ${OVERRIDES_DEFAULT_LIMIT}).`,
    }),
    offset: wholeNumber('Must be a whole number, 0 or more', { min: 0 }).meta({ description: 'Rows to skip (default 0).' }),
  })
  .superRefine((query, issue) => {
    if (query.from && query.to && query.to < query.from) issue.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
    if (query.baseOnly && query.scenarioId) issue.addIssue({ code: 'custom', path: ['baseOnly'], message: 'Not together with scenarioId' });
  })
  .superRefine(windowWithin('from', 'to'));
