import { z } from 'zod';
import { calendarDateText } from '../../date-times.js';
import { mustBe } from '../../parse.js';
import { text, wholeNumberOr } from '../../query-values.js';
import { DEFAULT_HORIZON, MAX_HORIZON } from '../demand/forecast-query.js';

export const MIN_COMPARED_SCENARIOS = 2;
export const MAX_COMPARED_SCENARIOS = 10;
/**
 * The most series one comparison adds up: they are all fitted in the request (once, whatever the number of
 * scenarios). More matching series: 400, narrow with the filters.
 */
export const MAX_COMPARED_SERIES = 200;

const scenarioId = z.string({ error: mustBe('text') }).trim().min(1, 'Required');

/** Body of POST /api/forecast/scenarios/compare and arguments of compareForecastScenarios. */
export const forecastScenarioCompare = z.strictObject({
  scenarioIds: z
    .array(scenarioId, { error: mustBe('a list') })
    .min(MIN_COMPARED_SCENARIOS, `At least ${MIN_COMPARED_SCENARIOS} scenarios`)
    .max(MAX_COMPARED_SCENARIOS, `At most ${MAX_COMPARED_SCENARIOS} scenarios`)
    .superRefine((ids, issue) => {
      const seen = new Set<string>();
      ids.forEach((id, index) => {
        if (seen.has(id)) issue.addIssue({ code: 'custom', path: [index], message: 'Listed more than once' });
        seen.add(id);
      });
    })
    .meta({ description: `${MIN_COMPARED_SCENARIOS} to ${MAX_COMPARED_SCENARIOS} distinct scenarios of the organization; deltas are against the first.` }),
  productMasterId: text.meta({ description: "Only this product's series (404 when it is not one of the organization's)." }),
  locationId: text.meta({ description: "Only this location's series (404 when it is not one of the organization's)." }),
  channel: text.meta({ description: 'Only this channel label of the demand history (exact match).' }),
  horizon: wholeNumberOr(DEFAULT_HORIZON, `Must be an integer from 1 to ${MAX_HORIZON}`, { min: 1, max: MAX_HORIZON }).meta({
    description: `Weeks to forecast (default ${DEFAULT_HORIZON}, at most ${MAX_HORIZON}).`,
  }),
  from: text.pipe(calendarDateText.optional()).meta({
    format: 'date',
    description: "First forecast week: the ISO week (Monday) holding this day. Default: the week after each series' history.",
  }),
});

export type ForecastScenarioCompareInput = z.input<typeof forecastScenarioCompare>;
export type ForecastScenarioCompare = z.output<typeof forecastScenarioCompare>;
