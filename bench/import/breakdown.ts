// Where an import's time goes, piece by piece, in one process (no probe, no polling):
//   npx tsx bench/import/breakdown.ts [catalog|demand-history|inventory] [postgres|pglite] [--queries] [--keep]
// Stores 100,000 rows as the POST routes do (10,000 per request), then applies every chunk with the
// worker's processNextChunk, timing the POSTs, each chunk and the kind's applier inside it; --queries
// (PostgreSQL) also sums the time of every statement. Inventory rows name the catalog rows' SKUs: the
// catalog is imported first, untimed. Wrap it in `flock /tmp/bench.lock` like the bench.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { startServer } from '../../src/server/start.js';
import { CHUNK_APPLIERS } from '../../src/services/import/appliers/applier-registry.js';
import { processNextChunk } from '../../src/services/import/jobs/worker.js';
import { createScratchDatabase, loadBenchmarkData } from '../harness/data.js';
import { catalogData, demandData, inventoryData, LOADER_BATCH, prepareImportData } from './data.js';

const kind = process.argv[2] ?? 'catalog';
const backend = process.argv[3] ?? 'postgres';
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

const scratch = backend === 'postgres' ? await createScratchDatabase(adminUrl) : undefined;
const dataDir = backend === 'pglite' ? await mkdtemp(join(tmpdir(), 'scm-import-breakdown-')) : undefined;
const target = scratch ? { databaseUrl: scratch.url } : { dataDir: dataDir! };
try {
  const { key, organizationId } = await loadBenchmarkData(target);
  await prepareImportData(target, organizationId);
  const data = kind === 'catalog' ? catalogData() : kind === 'inventory' ? inventoryData() : demandData();
  const env = { ...(scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: dataDir }), PORT: '0', HOST: '127.0.0.1', SEED_DEMO: 'false', IMPORT_WORKERS: '0', JWT_SECRET: randomBytes(32).toString('base64url') };
  // With --queries (PostgreSQL): the time of every statement, summed by its first words.
  const queries = new Map<string, { n: number; ms: number }>();
  let database: Database | undefined;
  if (scratch && process.argv.includes('--queries')) {
    const pool = new pg.Pool({ connectionString: scratch.url, max: 10 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool), log: [{ emit: 'event', level: 'query' }] });
    prisma.$on('query', (e) => {
      const head = e.query.replace(/\s+/g, ' ').slice(0, 90);
      const q = queries.get(head) ?? { n: 0, ms: 0 };
      q.n += 1;
      q.ms += Number(e.duration);
      queries.set(head, q);
    });
    database = { prisma, kind: 'postgres', factory: new PrismaPg(pool), pool, close: async () => { await prisma.$disconnect(); await pool.end(); } };
  }
  const server = await startServer(loadConfig(env), { database });
  try {
    let applierMs = 0;
    for (const [name, applier] of Object.entries(CHUNK_APPLIERS)) {
      CHUNK_APPLIERS[name as keyof typeof CHUNK_APPLIERS] = async (ctx, rows, job) => {
        const t = performance.now();
        try {
          return await applier!(ctx, rows, job);
        } finally {
          applierMs += performance.now() - t;
        }
      };
    }
    const post = async (kindName: string, rows: unknown[]) => {
      for (let offset = 0; offset < rows.length; offset += LOADER_BATCH) {
        const body = JSON.stringify(rows.slice(offset, offset + LOADER_BATCH));
        const response = await fetch(`${server.url}/api/import/${kindName}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
        if (response.status !== 202) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      }
    };
    if (kind === 'inventory') {
      await post('catalog', catalogData().rows);
      while (await processNextChunk(server.app, () => false, console.error));
      await server.app.prisma.$executeRawUnsafe('ANALYZE');
      queries.clear();
      applierMs = 0;
    }
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await post(kind, data.rows);
    const postMs = performance.now() - started;
    const chunkMs: number[] = [];
    for (;;) {
      const t = performance.now();
      if (!(await processNextChunk(server.app, () => false, console.error))) break;
      chunkMs.push(performance.now() - t);
    }
    const applyMs = chunkMs.reduce((a, b) => a + b, 0);
    const cpu = process.cpuUsage(cpuBefore);
    const jobs = await server.app.prisma.importJob.findMany({ select: { state: true, processedRows: true, rejectedRows: true, failureReason: true } });
    console.log(
      `${backend} ${kind}: POSTs ${postMs.toFixed(0)} ms (${(postMs / (data.rows.length / LOADER_BATCH)).toFixed(0)} ms each); ` +
        `${chunkMs.length} chunks ${applyMs.toFixed(0)} ms (${(applyMs / chunkMs.length).toFixed(1)} ms each, applier ${(applierMs / chunkMs.length).toFixed(1)} ms); ` +
        `${Math.round(data.rows.length / ((postMs + applyMs) / 1000))} rows/s without HTTP polling; Node CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`,
    );
    console.log(`jobs: ${JSON.stringify(jobs.reduce((a, j) => ({ ...a, [j.state]: (a[j.state] ?? 0) + 1, processed: (a.processed ?? 0) + j.processedRows, rejected: (a.rejected ?? 0) + j.rejectedRows }), {} as Record<string, number>))}`);
    for (const [head, q] of [...queries].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) console.log(`${q.ms.toFixed(0).padStart(7)} ms ${String(q.n).padStart(5)}x  ${head}`);
  } finally {
    await server.close();
  }
} finally {
  // --keep: leave the scratch database for a look at its plans (drop it by hand).
  if (process.argv.includes('--keep') && scratch) console.log(`kept ${scratch.url}`);
  else await scratch?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
