import { z } from 'zod';
import { calendarDate, dateTime, integer, nullableString } from '../../common-responses.js';

const actor = z.object({ type: z.enum(['USER', 'API_KEY']), id: z.string() });

export const forecastOverride = z
  .object({
    id: z.string(),
    scenarioId: nullableString.describe('The scenario it is for; null: the base forecast and every scenario without its own override of the point.'),
    productMasterId: z.string(),
    locationId: z.string(),
    channel: z.string().describe('Channel label of the series (ALL by default).'),
    periodStart: calendarDate.describe('The week overridden: its Monday.'),
    quantity: z.number().min(0).describe('The forecast of that week, in units.'),
    note: nullableString,
    setBy: actor.describe('Who set it last.'),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'ForecastOverride', description: "A planner's quantity for one week of one series, winning over the model." });

export const forecastOverrideList = z
  .object({
    overrides: z.array(forecastOverride),
    data: z.array(forecastOverride),
    pagination: z.object({ total: integer, limit: integer, offset: integer, hasMore: z.boolean() }),
  })
  .describe('`overrides` and `data` hold the same page.');
