import { z } from 'zod';
import { FORECAST_CHANGE_KINDS } from '../../../src/contracts/forecasting/scenarios/forecast-change-query.js';
import { SCENARIO_STATUSES, SCENARIO_TYPES } from '../../../src/contracts/forecasting/scenarios/forecast-scenario.js';
import { calendarDate, dateTime, integer, nullableString } from '../../common-responses.js';

const actor = z.object({ type: z.enum(['USER', 'API_KEY']), id: z.string() }).meta({ id: 'ForecastActor', description: 'A signed-in user or an API key.' });
const lift = z.number().min(-0.99).max(5);

const assumptions = z
  .object({
    narrative: nullableString,
    globalLiftPct: z.number().min(-1).max(5).nullable(),
    categoryAdjustments: z.array(z.object({ categoryId: z.string(), liftPct: lift })).nullable(),
    channelAdjustments: z.array(z.object({ channelId: z.string(), liftPct: lift })).nullable(),
    includedEventIds: z.array(z.string()).nullable().describe("null: every event in the forecast's window; []: none."),
  })
  .nullable()
  .meta({ id: 'ForecastScenarioAssumptions', description: 'Applied on top of the statistical forecast in this order: events, category, channel, global lift. Every key is present (null when not set); null when no assumptions were given.' });

const scenarioFields = {
  id: z.string(),
  name: z.string(),
  description: nullableString,
  type: z.enum(SCENARIO_TYPES),
  status: z.enum(SCENARIO_STATUSES),
  assumptions,
  createdBy: actor,
  publishedBy: actor.nullable(),
  publishedAt: dateTime.nullable(),
  archivedAt: dateTime.nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
};

export const forecastScenario = z.object(scenarioFields).meta({ id: 'ForecastScenario' });

/** One scenario in both published shapes: under `scenario`, and its own fields at the top level. */
export const forecastScenarioEnvelope = z
  .object({ scenario: forecastScenario, ...scenarioFields })
  .meta({ id: 'ForecastScenarioEnvelope', description: 'The scenario twice: under `scenario` (the reference shape) and as its own fields at the top level (the machine-readable variant).' });

export const forecastScenarioList = z
  .object({ scenarios: z.array(forecastScenario), data: z.array(forecastScenario) })
  .describe('`scenarios` and `data` hold the same list.');

const forecastChange = z
  .object({
    id: z.string(),
    kind: z.enum(FORECAST_CHANGE_KINDS),
    scenarioId: nullableString.describe('Null for an override of the base forecast.'),
    productMasterId: nullableString,
    locationId: nullableString,
    channel: nullableString,
    periodStart: calendarDate.nullable(),
    totalBefore: z.number().nullable(),
    totalAfter: z.number().nullable(),
    actor,
    note: nullableString,
    createdAt: dateTime,
  })
  .meta({ id: 'ForecastChange' });

export const forecastChangeHistory = z
  .object({
    changes: z.array(forecastChange),
    data: z.array(forecastChange).describe('The same list as changes.'),
    pagination: z.object({ total: integer, limit: integer, offset: integer, hasMore: z.boolean() }),
  })
  .meta({ id: 'ForecastChangeHistory' });
