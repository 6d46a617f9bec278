import { processMetrics } from '../kernel/metrics.js';
import { watchDatabase } from './metrics.js';
import { ApiKeyCache, type ApiKeyRow } from '../auth/api-key-cache.js';
import { createServer, type Server } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import type { Config } from '../config.js';
import { type App, operatorContext } from '../context.js';
import { openDatabase, type Database } from '../db/database.js';
import { seedDemoIfEmpty } from '../services/admin/demo-seed.js';
import { loadJwtKey } from '../services/auth/tokens.js';
import { startImportWorkers } from '../services/import/jobs/worker.js';
import { startRecommendationExpirySweep } from '../services/transfers/recommendations/expiry-sweep.js';
import { startDemandHistoryRateLoop } from '../services/planning/projection/demand-history-rates.js';
import { startStockSnapshotLoop } from '../services/dashboard/inventory-summary/stock-snapshots.js';
import { startEvents } from '../services/events/publisher/start-events.js';
import { startWebhooks } from '../services/webhooks/start-webhooks.js';
import { prepareWebhookSecrets } from '../services/webhooks/webhook-secret-store.js';
import { startAlerts } from '../services/alerts/start-alerts.js';
import { startIdempotencyKeySweep } from '../services/idempotency/idempotency-key-sweep.js';
import { startRowCountCompaction } from '../services/row-counts/row-count-compaction.js';
import { startRetentionSweep } from '../services/retention/retention-sweep.js';
import { startForecastRunWorkers } from '../services/forecasting/runs/run-worker.js';
import { defaultPoolSize, ForecastWorkerPool } from '../services/forecasting/engine/worker-pool.js';
import { createHttpHandler } from './app.js';
import { capConnectionsPerAddress, httpServerOptions } from './connection-limits.js';
import { openRateLimits } from './rate-limit.js';
import { serveSubscriptions } from './subscriptions.js';
import { schema } from '../schema/index.js';

export interface RunningServer {
  app: App;
  database: Database;
  server: Server;
  handler: ReturnType<typeof createHttpHandler>;
  /** Where this machine reaches the server (127.0.0.1 when it listens on every interface). */
  url: string;
  /** The address and port it listens on. */
  listening: { host: string; port: number };
  /** Stops at once: open connections are cut. */
  close(): Promise<void>;
  /**
   * Stops gracefully: no new connections, graphql-ws sockets closed (1001), requests in flight finish
   * (their connections are cut after graceMs), import workers finish their chunk and forecast-run loops
   * their batch, then the forecast
   * worker threads end and the database pool closes.
   */
  shutdown(graceMs: number): Promise<void>;
}

export const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);
export const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** Opens the database (migrating it), builds the app and listens. Used by `npm start` and the tests. */
export async function startServer(config: Config, options: { database?: Database; log?: (m: string) => void } = {}): Promise<RunningServer> {
  const log = options.log ?? (() => {});
  const database = options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, directUrl: config.databaseDirectUrl, dataDir: config.dataDir, preparedStatements: config.preparedStatements, log }));
  const jwtKey = await loadJwtKey(database.prisma, config);
  const limits = await openRateLimits(config, database, jwtKey, log);
  const app: App = {
    prisma: database.prisma,
    config,
    jwtKey,
    directSql: database.directSql,
    apiKeys: new ApiKeyCache<ApiKeyRow>(config.apiKeyCacheSeconds * 1000),
    signInThrottle: limits.signIn,
    // Threads start on the first forecast, not here.
    forecastPool: new ForecastWorkerPool({ size: config.forecastWorkers ?? defaultPoolSize() }),
  };
  if (config.seedDemo) await seedDemoIfEmpty(app, log);
  // Webhook secrets sealed with SECRETS_ENCRYPTION_KEY (those in clear or under the previous key), before the worker signs with them.
  await prepareWebhookSecrets(operatorContext(app.prisma, 'webhook-secrets'), config.secretsEncryption, { databaseKind: database.kind, log });
  watchDatabase(processMetrics(), app, database.pool);
  const events = await startEvents(app, database, { pollMs: config.eventPublishPollMs, log });
  app.events = events.fanOut;
  const webhooks = startWebhooks(app, { fanOut: events.fanOut, log });
  const alerts = startAlerts(app, { fanOut: events.fanOut, log });
  const handler = createHttpHandler(app, limits.requests);
  const adapter = createServerAdapter<{ req: import('node:http').IncomingMessage }>((request, server) => handler.fetch(request, server));
  const server = createServer(httpServerOptions(config.http), adapter);
  capConnectionsPerAddress(server, config.http.maxConnectionsPerAddress);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  // graphql-ws on the same port; attached after listen so a listen error is reported once, by listen.
  const subscriptions = serveSubscriptions(app, server, schema, limits.requests);
  const address = server.address();
  const workers = startImportWorkers(app, {
    count: config.importWorkers ?? (database.kind === 'postgres' ? 2 : 1),
    pollMs: config.importPollMs,
    // A short pause after each chunk leaves the cores to requests now and then: on PostgreSQL 10 ms kept
    // GET /api/products p99 under 100 ms during an import and cost no throughput (BENCHMARKS.md, import);
    // single-connection PGlite needs longer gaps to serve requests at all.
    pauseMs: database.kind === 'pglite' ? 20 : 10,
    log,
  });
  const runWorkers = startForecastRunWorkers(app, {
    count: config.forecastRunWorkers ?? 1,
    pollMs: config.forecastRunPollMs,
    leaseMs: config.forecastRunLeaseMs,
    retryMs: config.forecastRunRetryMs,
    log,
  });
  const expirySweep = startRecommendationExpirySweep(app, { everySeconds: config.transfers.expirySweepSeconds, log });
  const { pollSeconds, ...snapshotPolicy } = config.stockSnapshots;
  const snapshots = startStockSnapshotLoop(app, { count: pollSeconds > 0 ? 1 : 0, pollMs: pollSeconds * 1000, policy: snapshotPolicy, log });
  const demandRates = startDemandHistoryRateLoop(app, { count: config.demandRatePollSeconds > 0 ? 1 : 0, pollMs: config.demandRatePollSeconds * 1000, log });
  const idempotencyKeys = startIdempotencyKeySweep(app, { everySeconds: config.idempotency.sweepSeconds, log });
  const rowCounts = startRowCountCompaction(app, { everySeconds: config.rowCountCompactSeconds, log });
  const retention = startRetentionSweep(app, { log });
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = typeof address === 'object' && address ? address.address : config.host;
  return {
    app,
    database,
    server,
    handler,
    url: `http://${WILDCARD_HOSTS.has(host) ? '127.0.0.1' : urlHost(host)}:${port}`,
    listening: { host, port },
    async shutdown(graceMs) {
      handler.health.markStopping();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A keep-alive connection becomes idle once its request is answered: close it then, not later.
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
      try {
        await Promise.all([subscriptions.close(), workers.stop(), runWorkers.stop(), expirySweep.stop(), snapshots.stop(), demandRates.stop(), idempotencyKeys.stop(), rowCounts.stop(), retention.stop(), webhooks.stop(), alerts.stop(), events.stop(), closed]);
      } finally {
        clearInterval(idle);
        clearTimeout(deadline);
      }
      // Requests in flight have had their forecasts by now (or their connections were cut).
      await app.forecastPool?.close();
      await database.close();
    },
    async close() {
      await subscriptions.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([workers.stop(), runWorkers.stop(), expirySweep.stop(), snapshots.stop(), demandRates.stop(), idempotencyKeys.stop(), rowCounts.stop(), retention.stop(), webhooks.stop(), alerts.stop(), events.stop()]);
      await app.forecastPool?.close();
      await limits.close();
      await database.close();
    },
  };
}
