import { processMetrics } from '../../../kernel/metrics.js';
import { currentLogger } from '../../../kernel/log.js';
import { type App, type OperatorContext, operatorContext, systemContext } from '../../../context.js';
import type { ImportJob } from '../../../generated/prisma/client.js';
import type { ImportKind, OrganizationStatus } from '../../../generated/prisma/enums.js';
import { DomainError } from '../../../kernel/errors.js';
import { CHUNK_APPLIERS } from '../appliers/applier-registry.js';
import { IMPORT_TX_OPTIONS, importEvents } from './jobs.js';
import { analyzeDuringImport, analyzeImported } from './analyze-imported.js';
import type { ChunkApplier, ImportRow, RowRejection } from './kinds.js';
import { startWorkLoops, type WorkLoops } from '../../work-loops.js';
import { type InTransaction, inTransaction, joinTransaction, type TxContext } from '../../../db/transactions.js';

interface ClaimedChunk {
  id: string;
  jobId: string;
  index: number;
  firstRow: number;
  rows: unknown;
  kind: ImportKind;
  jobState: string;
  createdByType: string;
  createdBy: string;
  organizationId: string;
  organizationName: string;
  organizationStatus: OrganizationStatus;
  industry: string | null;
  capabilities: string[];
}

/** Thrown by a kind's applier: the job cannot go on. */
class ApplierFailure extends Error {}

const rowRange = (firstRow: number, count: number) => `${firstRow}-${firstRow + count - 1}`;

/**
 * Starts `count` worker loops that apply stored import chunks. Each chunk is applied, its row errors
 * recorded, its checkpoint (processedAt) set and the job's counters moved in ONE transaction, so a
 * process killed mid-chunk leaves the chunk unprocessed and the next claim redoes it from scratch:
 * no row applied twice, none lost. Claims use FOR UPDATE SKIP LOCKED, so workers and instances on one
 * PostgreSQL share the work; a job's chunks are applied in order, one at a time, unless no natural key
 * is in two of them (independentChunks), when several workers apply them at once.
 */
export function startImportWorkers(
  app: App,
  options: { count?: number; pollMs?: number; pauseMs?: number; log?: (m: string) => void } = {},
): WorkLoops {
  const log = options.log ?? ((m: string) => console.error(m));
  return startWorkLoops({
    name: 'import worker',
    count: options.count ?? 1,
    pollMs: options.pollMs ?? 1000,
    // Pause between chunks, so that requests get the CPU (and on single-connection PGlite the connection) in between.
    pauseMs: options.pauseMs ?? 0,
    wakeOn: importEvents,
    step: (_loop, isStopping) => processNextChunk(app, isStopping, log),
    log,
  });
}

/** Applies the next chunk there is to apply. Returns false when there is none. */
export async function processNextChunk(app: App, isStopping: () => boolean = () => false, log: (m: string) => void = () => {}): Promise<boolean> {
  let claimedJobId: string | null = null;
  let claimedOrganization: string | null = null;
  let appliedRows = 0;
  try {
    const updated = await inTransaction(operatorContext(app.prisma, 'import-worker'), async (worker) => {
      const tx = worker.prisma;
      const chunk = await claimChunk(worker);
      if (!chunk) return null;
      claimedJobId = chunk.jobId;
      claimedOrganization = chunk.organizationId;
      // Deactivating an organization stops its work: its requests are refused (INACTIVE_ORGANIZATION), and
      // so are the rows of its jobs not yet applied. The job fails and says so; reactivating does not
      // resume it (its rows may be stale by then), the rows can be posted again.
      if (chunk.organizationStatus !== 'ACTIVE') {
        throw new ApplierFailure('The organization was deactivated before the job ended: its remaining rows were not applied');
      }
      // A job's first claim only marks it PROCESSING and commits (releasing the chunk), so that the job
      // reads PROCESSING while its first chunk is applied; the loop claims again at once. When two workers
      // claim chunks of one PENDING job at once, one marks it and the other applies its chunk.
      if (chunk.jobState === 'PENDING') {
        const now = new Date();
        const [marked] = await tx.$queryRaw<ImportJob[]>`
          UPDATE import_jobs SET state = 'PROCESSING', "startedAt" = ${now}, "updatedAt" = ${now}
          WHERE id = ${chunk.jobId} AND state = 'PENDING'
          RETURNING *`;
        if (marked) return marked;
      }
      // A chunk and its checkpoint commit together, so a commit lost when PostgreSQL itself crashes
      // loses both and the chunk is applied again: the commit need not wait for the disk (the rows of a
      // job are made durable when the job is accepted, in its own synchronous transaction).
      await tx.$executeRawUnsafe('SET LOCAL synchronous_commit = off');
      const claimedAt = new Date();
      const ctx = joinTransaction(chunkContext(app, chunk), tx);
      const rowsData = Array.isArray(chunk.rows) ? chunk.rows : [];
      const rows: ImportRow[] = rowsData.map((data, i) => ({ rowNumber: chunk.firstRow + i, data }));
      appliedRows = rows.length;
      const applier = CHUNK_APPLIERS[chunk.kind];
      if (!applier) throw new ApplierFailure(`No importer for kind ${chunk.kind}`);
      let rejections;
      try {
        rejections = await applyRows(applier, ctx, rows, { id: chunk.jobId }, (refused, error) =>
          log(`import job ${chunk.jobId}: the database refused rows ${refused.join(', ')}; the first because of ${(error as Error).stack ?? String(error)}`),
        );
      } catch (error) {
        // A deadlock or serialization conflict with other writers says nothing about the rows: the
        // chunk rolls back and is tried again (the worker loop backs off), the job does not fail.
        if (isTransient(error)) throw error;
        // A domain error speaks to the user; anything else is a defect whose text (SQL, file paths)
        // belongs in the server log, not in the job.
        if (error instanceof DomainError) throw new ApplierFailure(`Rows ${rowRange(chunk.firstRow, rows.length)}: ${error.message}`);
        log(`import job ${chunk.jobId}, rows ${rowRange(chunk.firstRow, rows.length)}: ${(error as Error).stack ?? String(error)}`);
        throw new ApplierFailure(`Rows ${rowRange(chunk.firstRow, rows.length)} could not be applied because of an unexpected error (logged by the server); rows applied before stay applied`);
      }
      if (rejections.length) {
        await tx.importRowError.createMany({
          data: rejections.map((r) => ({ jobId: chunk.jobId, rowNumber: r.rowNumber, field: r.field ?? null, message: r.message })),
        });
      }
      const rejectedRows = new Set(rejections.map((r) => r.rowNumber)).size;
      // The checkpoint and the job's counters in one statement. The job is complete when its processed
      // rows reach its total: with chunks applied at once, the one with the highest index need not be the
      // last to finish. Two chunks finishing together queue on the job row, and the second sees the
      // first's counters. A job another chunk has failed stays FAILED.
      const [job] = await tx.$queryRaw<ImportJob[]>`
        WITH checkpoint AS (UPDATE import_job_chunks SET "processedAt" = ${claimedAt} WHERE id = ${chunk.id})
        UPDATE import_jobs SET
          state = CASE WHEN state = 'FAILED' THEN state
                       WHEN "processedRows" + ${rows.length}::int >= "totalRows" THEN 'COMPLETED'::"ImportJobState"
                       ELSE 'PROCESSING'::"ImportJobState" END,
          "startedAt" = COALESCE("startedAt", ${claimedAt}),
          "lastChunkAt" = ${claimedAt},
          "completedAt" = CASE WHEN state <> 'FAILED' AND "processedRows" + ${rows.length}::int >= "totalRows" THEN ${new Date()} ELSE "completedAt" END,
          "processedRows" = "processedRows" + ${rows.length}::int,
          "rejectedRows" = "rejectedRows" + ${rejectedRows}::int,
          "updatedAt" = ${new Date()}
        WHERE id = ${chunk.jobId}
        RETURNING *`;
      return job!;
    }, IMPORT_TX_OPTIONS);
    if (!updated) return false;
    const line = { jobId: updated.id, organizationId: updated.organizationId, kind: updated.kind, totalRows: updated.totalRows };
    if (updated.state === 'PROCESSING' && updated.processedRows === 0) currentLogger().info(line, 'import job started');
    if (updated.state === 'COMPLETED') {
      const durationMs = updated.startedAt && updated.completedAt ? updated.completedAt.getTime() - updated.startedAt.getTime() : undefined;
      currentLogger().info({ ...line, processedRows: updated.processedRows, rejectedRows: updated.rejectedRows, durationMs }, 'import job finished');
      if (durationMs !== undefined) processMetrics().jobDone('import', 'COMPLETED', durationMs / 1000);
    }
    // After the commit, so that listeners read what the event says.
    importEvents.emit('progress', updated);
    if (updated.state === 'PROCESSING' && appliedRows) {
      // Statistics while a big job runs (the chunk that crosses a mark analyzes), so that the plans of the
      // next chunks know how large the tables have grown.
      const analyzed = await analyzeDuringImport(app, updated.kind, updated.processedRows - appliedRows, updated.processedRows, app.config.importAnalyzeMinRows).catch((error: Error) => {
        log(`import job ${updated.id}: ANALYZE failed: ${error.message}`);
        return [];
      });
      if (analyzed.length) currentLogger().info({ ...line, processedRows: updated.processedRows, tables: analyzed }, 'import job analyzed while running');
    }
    if (updated.state === 'COMPLETED') {
      // Statistics for what the job loaded (its last chunk's worker does it once), after the job is told
      // complete: a failure costs only the plans.
      const analyzed = await analyzeImported(app, updated.kind, updated.totalRows, app.config.importAnalyzeMinRows).catch((error: Error) => {
        log(`import job ${updated.id}: ANALYZE failed: ${error.message}`);
        return [];
      });
      if (analyzed.length) currentLogger().info({ ...line, tables: analyzed }, 'import job analyzed');
    }
    return true;
  } catch (error) {
    if (!(error instanceof ApplierFailure) || !claimedJobId || isStopping()) throw error;
    const reason = error.message.slice(0, 2000);
    log(`import job ${claimedJobId} failed: ${reason}`);
    currentLogger().error({ jobId: claimedJobId, organizationId: claimedOrganization, reason }, 'import job failed');
    const failed = await app.prisma.importJob.update({
      where: { id: claimedJobId },
      data: { state: 'FAILED', failureReason: reason, completedAt: new Date() },
    });
    importEvents.emit('progress', failed);
    if (failed.startedAt && failed.completedAt) processMetrics().jobDone('import', 'FAILED', (failed.completedAt.getTime() - failed.startedAt.getTime()) / 1000);
    return true;
  }
}

/** A row the database refused is named as a whole (`_`): the database does not say which field it refused. */
const REFUSED_ROW_MESSAGE = 'The database refused this row (the server logged why); the other rows were applied';

/**
 * Applies a chunk's rows. When the applier fails for a reason that is neither a conflict with other
 * writers (retried) nor a domain error (the job fails with its message), the cause is one row's data
 * the contracts let through and the database refused: the chunk is undone to a savepoint and its rows
 * applied one at a time, each behind its own savepoint, so that the rows the database refuses are
 * rejected (and logged) and the others go in, instead of the whole chunk failing the job.
 */
async function applyRows(
  applier: ChunkApplier,
  ctx: TxContext,
  rows: ImportRow[],
  job: { id: string },
  logRefusals: (rowNumbers: number[], firstError: unknown) => void,
): Promise<RowRejection[]> {
  const tx = ctx.prisma;
  const refusedByData = (error: unknown) => !isTransient(error) && !(error instanceof DomainError);
  await tx.$executeRawUnsafe('SAVEPOINT chunk_rows');
  try {
    const rejections = await applier(ctx, rows, job);
    await tx.$executeRawUnsafe('RELEASE SAVEPOINT chunk_rows');
    return rejections;
  } catch (error) {
    if (!refusedByData(error)) throw error;
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT chunk_rows');
  }
  const rejections: RowRejection[] = [];
  const refused: number[] = [];
  let firstError: unknown;
  for (const row of rows) {
    await tx.$executeRawUnsafe('SAVEPOINT one_row');
    try {
      rejections.push(...(await applier(ctx, [row], job)));
      await tx.$executeRawUnsafe('RELEASE SAVEPOINT one_row');
    } catch (error) {
      if (!refusedByData(error)) throw error;
      await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT one_row');
      if (!refused.length) firstError = error;
      refused.push(row.rowNumber);
      rejections.push({ rowNumber: row.rowNumber, field: '_', message: REFUSED_ROW_MESSAGE });
    }
  }
  // One entry per chunk, however many rows share the cause.
  if (refused.length) logRefusals(refused, firstError);
  return rejections;
}

/**
 * Locks the next chunk to apply, with what applying it needs of its job and organization. Organizations
 * take turns: the chunk comes from the organization whose jobs (ended ones too) were last served longest
 * ago, one never served first, so a big import of one organization holds another's for one chunk at most;
 * within an organization, its oldest job first (ids are time-ordered). The turn is read from the jobs'
 * lastChunkAt, committed with each chunk, so it holds across workers and instances. In a job, the lowest
 * unprocessed chunk whose earlier chunks are all done; a chunk another worker holds is skipped, and so are
 * the later chunks of its job, except in a job with independent chunks, whose chunks may all be claimed at once.
 */
async function claimChunk({ prisma: tx }: InTransaction<OperatorContext>): Promise<ClaimedChunk | undefined> {
  const [chunk] = await tx.$queryRaw<ClaimedChunk[]>`
    WITH waiting AS (SELECT DISTINCT "organizationId" FROM import_jobs WHERE state IN ('PENDING', 'PROCESSING')),
    turns AS (
      SELECT w."organizationId", (SELECT max(s."lastChunkAt") FROM import_jobs s WHERE s."organizationId" = w."organizationId") AS "servedAt"
      FROM waiting w
    )
    SELECT c.id, c."jobId", c.index, c."firstRow", c.rows, j.kind::text AS kind, j.state::text AS "jobState", j."createdByType", j."createdBy",
           o.id AS "organizationId", o.name AS "organizationName", o.status::text AS "organizationStatus", o.industry, o.capabilities
    FROM import_job_chunks c
    JOIN import_jobs j ON j.id = c."jobId" AND j.state IN ('PENDING', 'PROCESSING')
    JOIN turns t ON t."organizationId" = j."organizationId"
    JOIN organizations o ON o.id = j."organizationId"
    WHERE c."processedAt" IS NULL
      AND (j."independentChunks"
        OR NOT EXISTS (SELECT 1 FROM import_job_chunks p WHERE p."jobId" = c."jobId" AND p.index < c.index AND p."processedAt" IS NULL))
    ORDER BY t."servedAt" NULLS FIRST, c."jobId", c.index
    LIMIT 1
    FOR UPDATE OF c SKIP LOCKED`;
  return chunk;
}

const TRANSIENT = /deadlock detected|could not serialize|40P01|40001|P2034|Connection terminated|ECONNRESET/i;

function isTransient(error: unknown): boolean {
  const e = error as { code?: string; message?: string; meta?: { code?: string } } | null;
  return Boolean(e && (e.code === 'P2034' || e.meta?.code === '40P01' || e.meta?.code === '40001' || TRANSIENT.test(e.message ?? '')));
}

/**
 * The job creator's view of its organization, with every permission an import needs. Appliers write
 * through the chunk's transaction, the handle of the context they are given (joinTransaction).
 */
function chunkContext(app: App, chunk: ClaimedChunk) {
  const { organizationId: id, organizationName: name, organizationStatus: status, industry, capabilities } = chunk;
  return systemContext(app, {
    organization: { id, name, status, industry, capabilities },
    actor: { type: chunk.createdByType === 'user' ? 'user' : 'apiKey', id: chunk.createdBy },
    origin: 'import-worker',
  });
}
