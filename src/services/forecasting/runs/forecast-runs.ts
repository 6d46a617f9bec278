import { EventEmitter } from 'node:events';
import type { RequestContext } from '../../../context.js';
import { MAX_HORIZON } from '../../../contracts/forecasting/demand/forecast-query.js';
import { FORECAST_RUN_PAGING, type ForecastGenerateOptions, type ForecastRunListQuery } from '../../../contracts/forecasting/runs/forecast-run.js';
import { Prisma, type ForecastRun } from '../../../generated/prisma/client.js';
import { ForecastScenarioStatus } from '../../../generated/prisma/enums.js';
import { DomainError, notFound, validationError } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { type ListWindow, orgId, pageWindow } from '../../tenant.js';
import { weekAfter } from '../engine/forecast-series.js';
import { listSeriesKeys, mondayOf, weeksBetween } from '../demand/demand-series.js';
import { checkForecastIds } from '../demand/fit-weekly-series.js';
import { getForecastScenario } from '../scenarios/forecast-scenarios.js';
import { recordGenerateChange } from './run-changes.js';
import { inTransaction } from '../../../db/transactions.js';

type Query = { select?: object; include?: object };

/**
 * In-process signal: 'created' wakes this process' run workers at once. Other instances find new runs by
 * polling; progress is read from the run row (the subscription polls it), so it is the same from any instance.
 */
export const forecastRunEvents = new EventEmitter();
forecastRunEvents.setMaxListeners(0);

/** A batch claimed this often, each claim ended by a crash or an error, fails its run. */
export const MAX_ATTEMPTS = 5;

/** Generous interactive-transaction limit: a run of many series stores its batches in one transaction. */
export const RUN_TX_OPTIONS = { timeout: 120_000, maxWait: 60_000 };

/**
 * Asks for a stored forecast of every matching series under a DRAFT scenario: the run (PENDING) and its
 * batches of series are written in one transaction, and the run workers of any instance fit them. The
 * scenario's assumptions are copied onto the run, so every batch applies the same ones whatever edits
 * follow. No series in scope: the run is COMPLETED at once with 0 series (and a GENERATE change of 0).
 */
export async function generateForecast(ctx: RequestContext, scenarioId: string, input: ForecastGenerateOptions, query: Query = {}) {
  await checkForecastIds(ctx, { scenarioId, productMasterId: input.productMasterId, locationId: input.locationId });
  // Refused before the history is read; checked again under the lock below.
  assertDraft(await getForecastScenario(ctx, scenarioId));
  const fromWeek = input.from ? mondayOf(input.from) : undefined;
  const keys = await listSeriesKeys(ctx, { productMasterId: input.productMasterId, locationId: input.locationId, channel: input.channel, before: fromWeek });
  // As GET /api/forecast refuses it: the weeks between a series' history and `from` are forecast too.
  if (fromWeek && keys.some((k) => weeksBetween(weekAfter(k.lastWeek, 1), fromWeek) > MAX_HORIZON)) {
    throw validationError({ from: [`Must be at most ${MAX_HORIZON} weeks after the last history week of each series`] });
  }
  const size = ctx.app.config.forecastRunBatchSize;
  const batches = Array.from({ length: Math.ceil(keys.length / size) }, (_, index) => {
    const slice = keys.slice(index * size, (index + 1) * size);
    return { index, firstSeries: index * size, seriesCount: slice.length, seriesKeys: slice.map((k) => [k.productMasterId, k.locationId, k.channel]) };
  });
  const organizationId = orgId(ctx);
  const { actorType, createdBy } = actorOf(ctx);
  const run = await inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    await tx.$executeRaw`SELECT 1 FROM forecast_scenarios WHERE id = ${scenarioId} AND "organizationId" = ${organizationId} FOR UPDATE`;
    const scenario = await getForecastScenario(ctx, scenarioId, {});
    assertDraft(scenario);
    const empty = keys.length === 0;
    const now = new Date();
    const created = await tx.forecastRun.create({
      data: {
        organizationId,
        scenarioId,
        status: empty ? 'COMPLETED' : 'PENDING',
        horizon: input.horizon,
        levels: input.levels,
        fromWeek: fromWeek ? new Date(`${fromWeek}T00:00:00Z`) : null,
        productMasterId: input.productMasterId ?? null,
        locationId: input.locationId ?? null,
        channel: input.channel ?? null,
        assumptions: scenario.assumptions ?? Prisma.DbNull,
        totalSeries: keys.length,
        totalBatches: batches.length,
        totalForecast: empty ? 0 : null,
        startedAt: empty ? now : null,
        completedAt: empty ? now : null,
        createdByType: actorType,
        createdBy,
      },
    });
    if (batches.length) await tx.forecastRunBatch.createMany({ data: batches.map((b) => ({ ...b, runId: created.id })) });
    if (empty) await recordGenerateChange(ctx, created);
    return created;
  }, RUN_TX_OPTIONS);
  forecastRunEvents.emit('created', run.id);
  return query.select || query.include ? getForecastRun(ctx, run.id, query) : run;
}

function assertDraft(scenario: { status: string }) {
  if (scenario.status !== ForecastScenarioStatus.DRAFT) {
    throw new DomainError('INVALID_STATE', `${scenario.status === 'ARCHIVED' ? 'An' : 'A'} ${scenario.status} scenario is read-only: only a DRAFT can be generated`);
  }
}

/** One of the organization's runs; unknown or foreign: NOT_FOUND. */
export async function getForecastRun(ctx: RequestContext, runId: string, query: Query = {}): Promise<ForecastRun> {
  const run = await ctx.prisma.forecastRun.findFirst({ ...query, where: { id: runId, organizationId: orgId(ctx) } });
  if (!run) throw notFound('Forecast run');
  return run;
}

/** A page of a scenario's runs, newest first; unknown or foreign scenario: NOT_FOUND. */
export async function listForecastRuns(ctx: RequestContext, scenarioId: string, input: ForecastRunListQuery, query: Query = {}, window?: ListWindow) {
  await checkForecastIds(ctx, { scenarioId });
  const { page, limit, skip, take } = pageWindow(input.page, input.limit, FORECAST_RUN_PAGING, window);
  const where = { organizationId: orgId(ctx), scenarioId };
  const [total, runs] = await Promise.all([
    ctx.prisma.forecastRun.count({ where }),
    ctx.prisma.forecastRun.findMany({ ...query, where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
  ]);
  return { runs, page, limit, total, totalPages: Math.ceil(total / limit) };
}

/** Share of the run's series done, 0 to 1 (a run of no series is done when it completes). */
export const runProgress = (run: Pick<ForecastRun, 'totalSeries' | 'processedSeries' | 'status'>) =>
  run.totalSeries ? Math.min(1, run.processedSeries / run.totalSeries) : run.status === 'COMPLETED' ? 1 : 0;
