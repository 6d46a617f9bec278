import { z } from 'zod';
import { calendarDate, dateTime, integer, pagination } from '../../common-responses.js';
import { METHODS, point, seriesAdjustment } from '../demand/forecast-responses.js';

const actor = z.object({ type: z.enum(['USER', 'API_KEY']), id: z.string() });
const units = z.number().min(0);

const runFields = {
  id: z.string(),
  scenarioId: z.string(),
  status: z.enum(['PENDING', 'RUNNING', 'COMPLETED', 'FAILED']).describe('PENDING until a worker takes its first batch, RUNNING while batches are fitted, then COMPLETED or FAILED.'),
  horizon: integer.describe('Weeks forecast per series.'),
  levels: z.array(z.number()).describe('Interval levels, in the order asked.'),
  from: calendarDate.nullable().describe('The first forecast week (Monday) when one was asked for; null: each series from the week after its history.'),
  productMasterId: z.string().nullable().describe('Only this product, when asked for.'),
  locationId: z.string().nullable().describe('Only this location, when asked for.'),
  channel: z.string().nullable().describe('Only this channel label, when asked for.'),
  totalSeries: integer.describe('Series (product × location × channel) in the run.'),
  processedSeries: integer.describe('Series fitted and stored so far.'),
  totalBatches: integer.describe('Batches the series were cut into.'),
  processedBatches: integer.describe('Batches stored so far.'),
  progress: z.number().min(0).max(1).describe('processedSeries / totalSeries (1 for a completed run of no series).'),
  totalForecast: units.nullable().describe('Sum of every stored weekly forecast; null until COMPLETED.'),
  failureReason: z.string().nullable().describe('Why the run FAILED.'),
  failedAttempts: integer.describe('Batch attempts that ended in an error so far; a failed batch waits before it is tried again (doubling each time), and its 5th failure fails the run.'),
  retryAt: dateTime.nullable().describe('When the batch that failed last is tried again (meanwhile other work goes first); null when no batch waits for a retry.'),
  createdBy: actor,
  createdAt: dateTime,
  startedAt: dateTime.nullable(),
  completedAt: dateTime.nullable(),
  statusUrl: z.string().describe('Path of GET /api/forecast/runs/{id} for this run.'),
};

export const forecastRun = z.object(runFields).meta({ id: 'ForecastRun', description: "A stored forecast of a scenario's series, fitted in batches by the server's workers." });

/** One run in both shapes: under `run`, and its own fields at the top level. */
export const forecastRunEnvelope = z
  .object({ run: forecastRun, ...runFields })
  .meta({ id: 'ForecastRunEnvelope', description: 'The run twice: under `run` and as its own fields at the top level.' });

export const forecastRunList = z.object({
  runs: z.array(forecastRun).describe('Newest first.'),
  data: z.array(forecastRun).describe('The same list as `runs`.'),
  meta: pagination,
});

const storedSeries = z
  .object({
    productMasterId: z.string(),
    locationId: z.string(),
    channel: z.string(),
    method: z.enum(METHODS),
    backtestError: z.number().min(0).nullable(),
    errorScale: z.enum(['SEASONAL_NAIVE_MAE', 'NAIVE_MAE', 'NONE']),
    demandClass: z.enum(['SMOOTH', 'ERRATIC', 'INTERMITTENT', 'LUMPY']).nullable(),
    intervalSource: z.enum(['CONFORMAL_BY_STEP', 'CONFORMAL_POOLED', 'MODEL']),
    historyWeeks: integer,
    lastHistoryWeek: calendarDate,
    eventIds: z.array(z.string()).describe('Events that lifted at least one of the points.'),
    adjustments: seriesAdjustment.nullable(),
    totalForecast: units.describe("Sum of the series' weekly forecasts."),
    points: z.array(point),
  })
  .meta({ id: 'StoredSeriesForecast', description: 'One stored series of a run: what GET /api/forecast answered for it when the run fitted it.' });

export const forecastRunSeriesPage = z.object({
  data: z.array(storedSeries),
  meta: z.intersection(
    pagination,
    z.object({ runId: z.string(), status: z.enum(['PENDING', 'RUNNING', 'COMPLETED', 'FAILED']).describe('A run not yet COMPLETED answers the series stored so far.') }),
  ),
});
