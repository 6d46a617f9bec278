import type { App, AuthInfo, RequestContext } from '../../context.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ImportJobState } from '../../generated/prisma/enums.js';
import { permissionsForScopes } from '../auth/permissions.js';
import { CHUNK_APPLIERS } from './appliers/index-map.js';
import { IMPORT_TX_OPTIONS, importEvents } from './jobs.js';
import type { ImportRow } from './kinds.js';

interface ClaimedChunk {
  id: string;
  jobId: string;
  index: number;
  firstRow: number;
  rows: unknown;
}

export interface ImportWorkers {
  stop(): Promise<void>;
}

/** Thrown by a kind's applier: the job cannot go on. */
class ApplierFailure extends Error {}

/**
 * Starts `count` worker loops that apply stored import chunks. Each chunk is applied, its row errors
 * recorded, its checkpoint (processedAt) set and the job's counters moved in ONE transaction, so a
 * process killed mid-chunk leaves the chunk unprocessed and the next claim redoes it from scratch:
 * no row applied twice, none lost. Claims use FOR UPDATE SKIP LOCKED, so instances on one PostgreSQL
 * share the work; a job's chunks are applied in order, one at a time.
 */
export function startImportWorkers(
  app: App,
  options: { count?: number; pollMs?: number; pauseMs?: number; log?: (m: string) => void } = {},
): ImportWorkers {
  const count = options.count ?? 1;
  const pollMs = options.pollMs ?? 1000;
  // Pause between chunks: on single-connection PGlite, requests get the connection in between.
  const pauseMs = options.pauseMs ?? 0;
  const log = options.log ?? ((m: string) => console.error(m));
  let stopped = false;
  const sleepers = new Set<() => void>();
  const wake = () => {
    for (const resolve of sleepers) resolve();
    sleepers.clear();
  };
  importEvents.on('created', wake);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });

  async function loop() {
    let failures = 0;
    while (!stopped) {
      try {
        const worked = await processNextChunk(app, () => stopped, log);
        failures = 0;
        if (!worked) await sleep(pollMs);
        else if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      } catch (error) {
        if (stopped) break;
        failures += 1;
        log(`import worker: ${(error as Error).message}`);
        await sleep(Math.min(pollMs * 2 ** failures, 30_000));
      }
    }
  }

  if (count <= 0) return { stop: async () => {} };
  const loops = Array.from({ length: count }, () => loop());
  return {
    async stop() {
      stopped = true;
      importEvents.off('created', wake);
      wake();
      await Promise.allSettled(loops);
    },
  };
}

/** Applies the next chunk there is to apply. Returns false when there is none. */
export async function processNextChunk(app: App, isStopping: () => boolean = () => false, log: (m: string) => void = () => {}): Promise<boolean> {
  let claimedJobId: string | null = null;
  try {
    const updated = await app.prisma.$transaction(async (tx) => {
      // The lowest unprocessed chunk of a live job whose earlier chunks are all done (oldest job first:
      // ids are time-ordered). A chunk another worker holds is skipped, and so are the later chunks of
      // its job, since the held one is still unprocessed.
      const [chunk] = await tx.$queryRaw<ClaimedChunk[]>`
        SELECT c.id, c."jobId", c.index, c."firstRow", c.rows
        FROM import_job_chunks c
        JOIN import_jobs j ON j.id = c."jobId" AND j.state IN ('PENDING', 'PROCESSING')
        WHERE c."processedAt" IS NULL
          AND NOT EXISTS (SELECT 1 FROM import_job_chunks p WHERE p."jobId" = c."jobId" AND p.index < c.index AND p."processedAt" IS NULL)
        ORDER BY c."jobId", c.index
        LIMIT 1
        FOR UPDATE OF c SKIP LOCKED`;
      if (!chunk) return null;
      claimedJobId = chunk.jobId;
      const job = await tx.importJob.findUniqueOrThrow({ where: { id: chunk.jobId }, include: { organization: true } });
      const started = job.startedAt ?? new Date();
      const ctx = workerContext(app, nestedClient(tx), job);
      const rowsData = Array.isArray(chunk.rows) ? chunk.rows : [];
      const rows: ImportRow[] = rowsData.map((data, i) => ({ rowNumber: chunk.firstRow + i, data }));
      const applier = CHUNK_APPLIERS[job.kind];
      if (!applier) throw new ApplierFailure(`No importer for kind ${job.kind}`);
      let rejections;
      try {
        rejections = await applier(tx, ctx, rows);
      } catch (error) {
        // A deadlock or serialization conflict with other writers says nothing about the rows: the
        // chunk rolls back and is tried again (the worker loop backs off), the job does not fail.
        if (isTransient(error)) throw error;
        throw new ApplierFailure((error as Error).message || String(error));
      }
      if (rejections.length) {
        await tx.importRowError.createMany({
          data: rejections.map((r) => ({ jobId: job.id, rowNumber: r.rowNumber, field: r.field ?? null, message: r.message })),
        });
      }
      const rejectedRows = new Set(rejections.map((r) => r.rowNumber)).size;
      await tx.importJobChunk.update({ where: { id: chunk.id }, data: { processedAt: new Date() } });
      const last = chunk.index >= job.totalChunks - 1;
      const state: ImportJobState = last ? 'COMPLETED' : 'PROCESSING';
      return tx.importJob.update({
        where: { id: job.id },
        data: {
          state,
          startedAt: started,
          completedAt: last ? new Date() : null,
          processedRows: { increment: rows.length },
          rejectedRows: { increment: rejectedRows },
        },
      });
    }, IMPORT_TX_OPTIONS);
    if (!updated) return false;
    // After the commit, so that listeners read what the event says.
    importEvents.emit('progress', updated);
    return true;
  } catch (error) {
    if (!(error instanceof ApplierFailure) || !claimedJobId || isStopping()) throw error;
    const reason = error.message.slice(0, 2000);
    log(`import job ${claimedJobId} failed: ${reason}`);
    const failed = await app.prisma.importJob.update({
      where: { id: claimedJobId },
      data: { state: 'FAILED', failureReason: reason, completedAt: new Date() },
    });
    importEvents.emit('progress', failed);
    return true;
  }
}

const TRANSIENT = /deadlock detected|could not serialize|40P01|40001|P2034|Connection terminated|ECONNRESET/i;

function isTransient(error: unknown): boolean {
  const e = error as { code?: string; message?: string; meta?: { code?: string } } | null;
  return Boolean(e && (e.code === 'P2034' || e.meta?.code === '40P01' || e.meta?.code === '40001' || TRANSIENT.test(e.message ?? '')));
}

/** The job creator's view of its organization, with the permissions an import needs. */
function workerContext(
  app: App,
  prisma: RequestContext['prisma'],
  job: { id: string; createdByType: string; createdBy: string; organization: AuthInfo['organization'] },
): RequestContext & { importJobId: string } {
  const { id, name, status, industry, capabilities } = job.organization;
  return {
    importJobId: job.id,
    app,
    prisma,
    clientIp: 'import-worker',
    auth: {
      organization: { id, name, status, industry, capabilities },
      actor: { type: job.createdByType === 'user' ? 'user' : 'apiKey', id: job.createdBy },
      permissions: permissionsForScopes(['*']),
    },
  };
}

/**
 * The chunk's transaction client, also answering $transaction (by running the callback in the chunk's
 * transaction): services an applier calls then write inside the chunk, never beside it.
 */
function nestedClient(tx: Prisma.TransactionClient): RequestContext['prisma'] {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === '$transaction') {
        return (arg: unknown) => (typeof arg === 'function' ? arg(tx) : Promise.all(arg as Promise<unknown>[]));
      }
      return Reflect.get(target, property, receiver);
    },
  }) as unknown as RequestContext['prisma'];
}
