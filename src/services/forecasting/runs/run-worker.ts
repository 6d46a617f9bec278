import { processMetrics } from '../../../kernel/metrics.js';
import { currentLogger } from '../../../kernel/log.js';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type App, systemContext } from '../../../context.js';
import type { ForecastRun } from '../../../generated/prisma/client.js';
import type { ForecastScenarioStatus, ForecastScenarioType, OrganizationStatus } from '../../../generated/prisma/enums.js';
import { DomainError } from '../../../kernel/errors.js';
import { forecastSeriesUnder } from '../demand/demand-forecast.js';
import { runProfile } from '../demand/fit-weekly-series.js';
import { readSeriesOfKeys } from '../demand/demand-series.js';
import { scenarioApplicationOf } from '../scenarios/scenario-adjustments.js';
import { forecastRunEvents, MAX_ATTEMPTS, RUN_TX_OPTIONS } from './forecast-runs.js';
import { recordGenerateChange } from './run-changes.js';
import { type IndexedForecast, writeBatchResults } from './run-results.js';
import { startWorkLoops, type WorkLoops } from '../../work-loops.js';
import { inTransaction } from '../../../db/transactions.js';

/** Longest wait before a failed batch is tried again. */
const MAX_RETRY_MS = 5 * 60_000;

interface ClaimedBatch {
  id: string;
  runId: string;
  index: number;
  seriesKeys: [string, string, string][];
  firstSeries: number;
  seriesCount: number;
  attempts: number;
  runStatus: string;
  /** The run's totalSeries: a big run is fitted with the engine's GENERATION profile. */
  runSeries: number;
  horizon: number;
  levels: number[];
  fromWeek: Date | null;
  assumptions: unknown;
  createdByType: string;
  createdBy: string;
  scenarioId: string;
  scenarioName: string;
  scenarioType: ForecastScenarioType;
  scenarioStatus: ForecastScenarioStatus;
  organizationId: string;
  organizationName: string;
  organizationStatus: OrganizationStatus;
  industry: string | null;
  capabilities: string[];
}

/** The batch cannot be fitted and never will be: its run fails with this message. */
class RunFailure extends Error {}

const TRANSIENT = /deadlock detected|could not serialize|40P01|40001|P2034|Connection terminated|ECONNRESET/i;
const isTransient = (error: unknown) => {
  const e = error as { code?: string; message?: string } | null;
  return Boolean(e && (e.code === 'P2034' || TRANSIENT.test(e.message ?? '')));
};

/**
 * Starts `count` loops that fit the batches of stored forecast runs. A batch is claimed with FOR UPDATE
 * SKIP LOCKED for a lease (claimToken, claimedUntil), so loops of every instance on one database share a
 * run; it is fitted outside any transaction (the fit takes seconds, and single-connection PGlite must keep
 * serving requests meanwhile); its series, points, checkpoint (doneAt) and the run's counters are then
 * written in ONE transaction that first checks the lease is still its own. A process killed mid-batch
 * leaves the batch open: when its lease runs out another loop claims it and does it again, and nothing of
 * it was written before. A batch whose lease was taken over is written by one loop only.
 */
export function startForecastRunWorkers(
  app: App,
  options: { count?: number; pollMs?: number; leaseMs?: number; retryMs?: number; log?: (m: string) => void } = {},
): WorkLoops {
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const retryMs = options.retryMs ?? 2_000;
  const log = options.log ?? ((m: string) => console.error(m));
  return startWorkLoops({
    name: 'forecast run worker',
    count: options.count ?? 1,
    pollMs: options.pollMs ?? 1000,
    wakeOn: forecastRunEvents,
    // The worker names the loop in the batches it claims (claimToken), for whoever looks at a run's batches.
    step: (loop) => processNextBatch(app, { leaseMs, retryMs, log, worker: `${hostname()}/${process.pid}/${loop}` }),
    log,
  });
}

/**
 * Claims, fits and stores the next open batch there is. Returns false when there is none. `onFitted`
 * runs between the fit and the write, and stands for a process that stops there (tests use it): what it
 * throws ends the call with nothing written and the lease held, as a crash would leave it.
 *
 * A batch that fails (an error that is not the run's fault for good, e.g. the store failing) does not make
 * the loop wait: the batch is given back with a next-attempt time (retryMs × 2^(attempts − 1)), the run
 * says so (failedAttempts, retryAt) and the loop goes on with other work; at MAX_ATTEMPTS the run FAILED.
 */
export async function processNextBatch(
  app: App,
  options: { leaseMs: number; retryMs?: number; log?: (m: string) => void; worker?: string; onFitted?: (batch: { id: string; runId: string }) => Promise<void> },
): Promise<boolean> {
  // One token per claim: a loop that lost its lease and claims the batch again is a new holder.
  const token = `${options.worker ?? 'worker'} ${randomUUID()}`;
  const batch = await claimBatch(app, token, options.leaseMs);
  if (!batch) return false;
  let results: IndexedForecast[];
  try {
    if (batch.organizationStatus !== 'ACTIVE') throw new RunFailure('The organization was deactivated before the run ended');
    if (batch.attempts > MAX_ATTEMPTS) throw new RunFailure(`Batch ${batch.index} was started ${MAX_ATTEMPTS} times without finishing`);
    if (batch.runStatus === 'PENDING') {
      const started = await app.prisma.forecastRun.updateMany({ where: { id: batch.runId, status: 'PENDING' }, data: { status: 'RUNNING', startedAt: new Date() } });
      if (started.count) currentLogger().info({ runId: batch.runId, organizationId: batch.organizationId, worker: options.worker }, 'forecast run started');
    }
    results = await fitBatch(app, batch);
  } catch (error) {
    await batchFailed(app, batch, token, error, options);
    return true;
  }
  await options.onFitted?.({ id: batch.id, runId: batch.runId });
  try {
    const run = await storeBatch(app, batch, token, results);
    if (run?.status === 'COMPLETED') {
      currentLogger().info(
        { runId: run.id, organizationId: run.organizationId, scenarioId: run.scenarioId, series: run.totalSeries, batches: run.totalBatches, durationMs: run.startedAt && run.completedAt ? run.completedAt.getTime() - run.startedAt.getTime() : undefined },
        'forecast run finished',
      );
      if (run.startedAt && run.completedAt) processMetrics().jobDone('forecast_run', 'COMPLETED', (run.completedAt.getTime() - run.startedAt.getTime()) / 1000);
    }
  } catch (error) {
    await batchFailed(app, batch, token, error, options);
  }
  return true;
}

/**
 * A failed attempt at a batch. A RunFailure, or a domain error that is not a conflict with other writers,
 * will not go away: the run fails at once. Anything else (the store failing, a crashed engine thread, a
 * lost connection) is logged, and the batch waits before it is tried again, or fails its run at
 * MAX_ATTEMPTS. The run's reason never carries the error's text (SQL, file paths): that is in the log.
 */
async function batchFailed(app: App, batch: ClaimedBatch, token: string, error: unknown, options: { retryMs?: number; log?: (m: string) => void }) {
  if (error instanceof RunFailure || (error instanceof DomainError && !isTransient(error))) {
    await failRun(app, batch.runId, (error as Error).message, options.log);
    return;
  }
  options.log?.(`forecast run ${batch.runId}, batch ${batch.index}, attempt ${batch.attempts}: ${(error as Error)?.stack ?? String(error)}`);
  if (batch.attempts >= MAX_ATTEMPTS) {
    const reason = `Batch ${batch.index} failed ${batch.attempts} times because of an unexpected error (logged by the server); batches stored before stay readable`;
    await failRun(app, batch.runId, reason, options.log, { failedAttempt: true });
    return;
  }
  const waitMs = Math.min((options.retryMs ?? 0) * 2 ** (batch.attempts - 1), MAX_RETRY_MS);
  await app.prisma.$executeRaw`
    WITH retry AS (
      UPDATE forecast_run_batches SET "claimToken" = NULL, "claimedUntil" = now() + ${waitMs}::int * interval '1 millisecond'
      WHERE id = ${batch.id} AND "claimToken" = ${token} AND "doneAt" IS NULL
      RETURNING "runId", "claimedUntil"
    )
    UPDATE forecast_runs r SET "failedAttempts" = r."failedAttempts" + 1, "retryAt" = retry."claimedUntil", "updatedAt" = now()
    FROM retry WHERE r.id = retry."runId"`;
}

/**
 * Leases the next open batch of a live run that no one holds, whose lease ran out, or whose retry time has
 * come. Organizations take turns: first the one with the fewest batches being fitted, then the one whose
 * runs were claimed from longest ago (never: first), so one organization's big or failing run holds
 * another's for one batch at most; within an organization, its oldest run first (ids are time-ordered),
 * and in a run a batch given back after a failure behind the others.
 * The turn is the runs' lastClaimAt, stamped by the claim itself, so it holds across loops and instances.
 */
async function claimBatch(app: App, token: string, leaseMs: number): Promise<ClaimedBatch | undefined> {
  const [batch] = await app.prisma.$queryRaw<ClaimedBatch[]>`
    WITH live AS (SELECT id, "organizationId" FROM forecast_runs WHERE status IN ('PENDING', 'RUNNING')),
    turns AS (
      SELECT w."organizationId",
             (SELECT max(s."lastClaimAt") FROM forecast_runs s WHERE s."organizationId" = w."organizationId") AS "servedAt",
             (SELECT count(*) FROM forecast_run_batches h JOIN live l ON l.id = h."runId"
              WHERE l."organizationId" = w."organizationId" AND h."claimToken" IS NOT NULL AND h."doneAt" IS NULL AND h."claimedUntil" > now()) AS fitting
      FROM (SELECT DISTINCT "organizationId" FROM live) w
    ), next AS (
      SELECT b.id FROM forecast_run_batches b
      JOIN live l ON l.id = b."runId"
      JOIN turns t ON t."organizationId" = l."organizationId"
      WHERE b."doneAt" IS NULL AND (b."claimedUntil" IS NULL OR b."claimedUntil" < now())
      ORDER BY t.fitting, t."servedAt" NULLS FIRST, b."runId", (b."claimToken" IS NULL AND b."claimedUntil" IS NOT NULL), b.index
      LIMIT 1
      FOR UPDATE OF b SKIP LOCKED
    ), claimed AS (
      UPDATE forecast_run_batches b SET "claimToken" = ${token}, "claimedUntil" = now() + ${leaseMs}::int * interval '1 millisecond', attempts = b.attempts + 1
      FROM next WHERE b.id = next.id
      RETURNING b.*
    ), stamped AS (
      UPDATE forecast_runs r SET "lastClaimAt" = now() FROM claimed c WHERE r.id = c."runId"
    )
    SELECT c.id, c."runId", c.index, c."seriesKeys", c."firstSeries", c."seriesCount", c.attempts,
           r.status::text AS "runStatus", r."totalSeries" AS "runSeries", r.horizon, r.levels, r."fromWeek", r.assumptions, r."createdByType", r."createdBy",
           s.id AS "scenarioId", s.name AS "scenarioName", s.type::text AS "scenarioType", s.status::text AS "scenarioStatus",
           o.id AS "organizationId", o.name AS "organizationName", o.status::text AS "organizationStatus", o.industry, o.capabilities
    FROM claimed c
    JOIN forecast_runs r ON r.id = c."runId"
    JOIN forecast_scenarios s ON s.id = r."scenarioId"
    JOIN organizations o ON o.id = r."organizationId"`;
  return batch;
}

/** The run creator's view of its organization, as an import job's worker acts as the job's creator. */
function runContext(app: App, batch: ClaimedBatch) {
  const { organizationId: id, organizationName: name, organizationStatus: status, industry, capabilities } = batch;
  return systemContext(app, {
    organization: { id, name, status, industry, capabilities },
    actor: { type: batch.createdByType === 'USER' ? 'user' : 'apiKey', id: batch.createdBy },
    origin: 'forecast-run-worker',
  });
}

/** The batch's series as GET /api/forecast?scenarioId= answers them, under the assumptions the run copied. */
async function fitBatch(app: App, batch: ClaimedBatch): Promise<IndexedForecast[]> {
  const ctx = runContext(app, batch);
  const fromWeek = batch.fromWeek ? batch.fromWeek.toISOString().slice(0, 10) : undefined;
  const keys = batch.seriesKeys.map(([productMasterId, locationId, channel]) => ({ productMasterId, locationId, channel }));
  const scenario = await scenarioApplicationOf(ctx, {
    id: batch.scenarioId,
    name: batch.scenarioName,
    type: batch.scenarioType,
    status: batch.scenarioStatus,
    assumptions: batch.assumptions as never,
  });
  const series = await readSeriesOfKeys(ctx, keys, fromWeek);
  const profile = runProfile(batch.runSeries);
  const forecasts = await forecastSeriesUnder(ctx, series, { fromWeek, horizon: batch.horizon, levels: batch.levels, profile }, scenario);
  // A series whose history was deleted since the run was asked for is left out; the others keep their place.
  const place = new Map(keys.map((k, i) => [`${k.productMasterId}\u0000${k.locationId}\u0000${k.channel}`, batch.firstSeries + i]));
  return forecasts.map((forecast) => ({ seriesIndex: place.get(`${forecast.productMasterId}\u0000${forecast.locationId}\u0000${forecast.channel}`)!, forecast }));
}

/**
 * The batch's results, its checkpoint and the run's counters in one transaction, if the lease is still
 * this worker's (else nothing: another worker has the batch). The run completes when its processed
 * batches reach its total; two batches finishing together queue on the run row. Returns the run.
 */
async function storeBatch(app: App, batch: ClaimedBatch, token: string, results: IndexedForecast[]): Promise<ForecastRun | null> {
  return inTransaction(runContext(app, batch), async (ctx) => {
    const tx = ctx.prisma;
    const held = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM forecast_run_batches WHERE id = ${batch.id} AND "claimToken" = ${token} AND "doneAt" IS NULL FOR UPDATE`;
    if (!held.length) return null;
    // Stored results are made durable by the run's completion at the latest; a batch lost with a crash of
    // PostgreSQL itself loses its checkpoint too and is fitted again.
    await tx.$executeRawUnsafe('SET LOCAL synchronous_commit = off');
    const total = await writeBatchResults(ctx, batch.runId, results);
    await tx.$executeRaw`UPDATE forecast_run_batches SET "doneAt" = now(), "claimedUntil" = NULL WHERE id = ${batch.id}`;
    const [run] = await tx.$queryRaw<ForecastRun[]>`
      UPDATE forecast_runs SET
        status = CASE WHEN status = 'FAILED' THEN status
                      WHEN "processedBatches" + 1 >= "totalBatches" THEN 'COMPLETED'::"ForecastRunStatus"
                      ELSE 'RUNNING'::"ForecastRunStatus" END,
        "processedBatches" = "processedBatches" + 1,
        "processedSeries" = "processedSeries" + ${batch.seriesCount}::int,
        "forecastSum" = "forecastSum" + ${total}::float8,
        "totalForecast" = CASE WHEN status <> 'FAILED' AND "processedBatches" + 1 >= "totalBatches" THEN round(("forecastSum" + ${total}::float8)::numeric, 4)::float8 END,
        "startedAt" = COALESCE("startedAt", now()),
        "retryAt" = CASE WHEN ${batch.attempts}::int > 1 THEN NULL ELSE "retryAt" END,
        "completedAt" = CASE WHEN status <> 'FAILED' AND "processedBatches" + 1 >= "totalBatches" THEN now() ELSE "completedAt" END,
        "updatedAt" = now()
      WHERE id = ${batch.runId}
      RETURNING *`;
    if (run!.status === 'COMPLETED') await recordGenerateChange(ctx, run!);
    return run!;
  }, RUN_TX_OPTIONS);
}

async function failRun(app: App, runId: string, reason: string, log?: (m: string) => void, options: { failedAttempt?: boolean } = {}) {
  log?.(`forecast run ${runId} failed: ${reason}`);
  currentLogger().error({ runId, reason: reason.slice(0, 2000) }, 'forecast run failed');
  await app.prisma.forecastRun.updateMany({
    where: { id: runId, status: { in: ['PENDING', 'RUNNING'] } },
    data: {
      status: 'FAILED',
      failureReason: reason.slice(0, 2000),
      failedAttempts: { increment: options.failedAttempt ? 1 : 0 },
      retryAt: null,
      completedAt: new Date(),
    },
  });
}
