import { z } from 'zod';
import { calendarDate, integer, pagination } from '../../common-responses.js';

const METHODS = ['SIMPLE_LEVEL', 'NAIVE', 'SEASONAL_NAIVE', 'ETS', 'MSTL', 'CROSTON', 'SBA', 'TSB', 'ENSEMBLE'] as const;
const ratio = z.number().min(0);

const accuracyRow = z
  .object({
    productMasterId: z.string().nullable().describe('The product when grouped by product, else null.'),
    locationId: z.string().nullable().describe('The location when grouped by location, else null.'),
    channel: z.string().nullable().describe('The channel label when grouped by channel, else null.'),
    method: z.enum(METHODS).nullable().describe('The method the engine chose when grouped by method (ENGINE, STORED), else null.'),
    points: integer.describe('Weeks measured: series × week with a recorded actual.'),
    zeroActualPoints: integer.describe('Of them, weeks whose actual is 0: MAPE skips them.'),
    scaledPoints: integer.describe('Of them, weeks of series with a MASE scale: MASE averages over them.'),
    actualTotal: z.number().describe('Σ actual units.'),
    forecastTotal: z.number().describe('Σ forecast units.'),
    mase: ratio.nullable().describe("Mean of |F − A| / scale, scale being each series' in-sample seasonal-naive MAE before from (naive-1 when a year or less, or 0); null when no point has a scale."),
    wape: ratio.nullable().describe('Σ|F − A| / ΣA; null when ΣA is 0.'),
    bias: z.number().nullable().describe('(ΣF − ΣA) / ΣA: positive when over-forecast; null when ΣA is 0.'),
    mape: ratio.nullable().describe('Mean of |F − A| / |A| over the weeks with A ≠ 0; null when there are none.'),
  })
  .meta({ id: 'ForecastAccuracyRow', description: 'Accuracy of one group of forecasts against the actuals of the demand history.' });

export const accuracyPage = z.object({
  data: z.array(accuracyRow),
  meta: z.intersection(
    pagination,
    z.object({
      source: z.enum(['IMPORTED', 'ENGINE', 'STORED']),
      groupBy: z.enum(['product', 'location', 'channel', 'method', 'total']),
      from: calendarDate.nullable().describe('The first measured week (Monday), when asked for.'),
      to: calendarDate.nullable().describe('The last measured week (Monday), when asked for.'),
      horizon: integer.nullable().describe('ENGINE: weeks forecast from from; null otherwise.'),
      includeAdjustments: z
        .boolean()
        .nullable()
        .describe('ENGINE: whether events (stated and learned lifts) and base planner overrides were applied (true) or the statistical forecast measured alone (false); null otherwise.'),
      runId: z.string().nullable().describe('STORED: the forecast run measured; null otherwise.'),
    }),
  ),
});
