import { Response } from '@whatwg-node/fetch';
// GET /metrics (docs/configuration.md, Metrics): the process's metrics (src/kernel/metrics.ts) to a holder of
// METRICS_TOKEN, with gauges read when scraped: the pool, the queues and the outbox lag.
import { timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { Gauge } from 'prom-client';
import { json, methodNotAllowed } from '../../rest-adapter/errors.js';
import type { App } from '../context.js';
import type { Metrics } from '../kernel/metrics.js';

export const METRICS_PATH = '/metrics';
/** Queue depths and outbox lag are read from the database at most this often, whatever the scrape rate. */
const DATABASE_READ_MS = 5_000;

/** Gauges read when scraped: the pool of this process, and queues and the outbox lag from the database (cached). */
export function watchDatabase(metrics: Metrics, app: App, pool: pg.Pool | undefined) {
  const { registry } = metrics;
  if (registry.getSingleMetric('scm_db_pool_connections')) registry.removeSingleMetric('scm_db_pool_connections');
  new Gauge({
    name: 'scm_db_pool_connections',
    help: 'PostgreSQL pool of this process: open (total), idle, and requests waiting for a connection.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  let read: Promise<DatabaseFigures> | undefined;
  let readAt = 0;
  const figures = () => {
    if (!read || Date.now() - readAt > DATABASE_READ_MS) {
      readAt = Date.now();
      read = readFigures(app).catch(() => ({ queues: [], cursors: [] }));
    }
    return read;
  };
  for (const name of ['scm_queue_depth', 'scm_outbox_lag_events', 'scm_outbox_lag_seconds']) if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
  new Gauge({
    name: 'scm_queue_depth',
    help: 'Import jobs and forecast runs waiting or running, over every organization.',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of (await figures()).queues) this.set({ queue: q.queue, state: q.state }, q.count);
    },
  });
  new Gauge({
    name: 'scm_outbox_lag_events',
    help: 'Domain events written but not yet past each consumer (publisher, webhooks, alerts), at most 100,000 counted.',
    labelNames: ['consumer'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const c of (await figures()).cursors) this.set({ consumer: c.name }, c.behind);
    },
  });
  new Gauge({
    name: 'scm_outbox_lag_seconds',
    help: 'Age of the oldest domain event not yet past each consumer (0 when none waits).',
    labelNames: ['consumer'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const c of (await figures()).cursors) this.set({ consumer: c.name }, c.ageSeconds);
    },
  });
}

interface DatabaseFigures {
  queues: { queue: string; state: string; count: number }[];
  cursors: { name: string; behind: number; ageSeconds: number }[];
}

async function readFigures(app: App): Promise<DatabaseFigures> {
  const queues = await app.prisma.$queryRaw<{ queue: string; state: string; count: number }[]>`
    SELECT 'import' AS queue, state::text AS state, count(*)::int AS count FROM import_jobs WHERE state IN ('PENDING', 'PROCESSING') GROUP BY state
    UNION ALL
    SELECT 'forecast_run', status::text, count(*)::int FROM forecast_runs WHERE status IN ('PENDING', 'RUNNING') GROUP BY status`;
  const cursors = await app.prisma.$queryRaw<{ name: string; behind: number; ageSeconds: number }[]>`
    SELECT c.name,
      (SELECT count(*)::int FROM (SELECT 1 FROM domain_events e WHERE (e.txid, e.id) > (c.txid, c."lastId") LIMIT 100000) x) AS behind,
      COALESCE((SELECT EXTRACT(EPOCH FROM now() - e."createdAt")::float8 FROM domain_events e WHERE (e.txid, e.id) > (c.txid, c."lastId") ORDER BY e.txid, e.id LIMIT 1), 0) AS "ageSeconds"
    FROM event_publisher_cursors c`;
  return { queues, cursors };
}

/** GET /metrics: the text format to `Authorization: Bearer <METRICS_TOKEN>`; 404 when no token is set. */
export async function serveMetrics(request: Request, token: string | undefined, metrics: Metrics): Promise<Response> {
  if (!token) return json(404, { error: 'Not found: /metrics (metrics are served when METRICS_TOKEN is set)', code: 'NOT_FOUND' });
  if (request.method !== 'GET') return methodNotAllowed(request.method, METRICS_PATH, ['GET']);
  const given = Buffer.from((request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, ''));
  const wanted = Buffer.from(token);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    const code = given.length ? 'INVALID_TOKEN' : 'MISSING_AUTHORIZATION';
    return json(401, { error: 'Metrics need Authorization: Bearer <METRICS_TOKEN>', code }, { 'www-authenticate': 'Bearer realm="metrics"' });
  }
  return new Response(await metrics.registry.metrics(), { status: 200, headers: { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' } });
}
