import { readdir } from 'node:fs/promises';
import { json } from '../../rest-adapter/errors.js';
import type { App } from '../context.js';
import { migrationsDir } from '../db/migrations.js';

/** Longest a readiness probe waits for the database before it answers 503. */
const READY_TIMEOUT_MS = 2_000;

/** The migrations this code was built with (prisma/migrations), read once. */
let expected: Promise<string[]> | undefined;
const expectedMigrations = () =>
  (expected ??= readdir(migrationsDir(), { withFileTypes: true }).then((entries) => entries.filter((e) => e.isDirectory()).map((e) => e.name).sort()));

type Check = { status: 'ok' | 'failing'; [detail: string]: unknown };

/**
 * The probes of an orchestrator or load balancer (docs/configuration.md, Health):
 * - `/health`: the process answers (kept as it always was);
 * - `/health/live`: the same, under the name orchestrators expect: restart the process when it fails;
 * - `/health/ready`: send it traffic? The database answers within READY_TIMEOUT_MS, every migration this code
 *   knows is applied, and the instance is not shutting down; 503 with the failing checks otherwise.
 */
export function createHealth(app: App) {
  let stopping = false;

  async function databaseCheck(): Promise<{ database: Check; migrations: Check }> {
    const started = performance.now();
    const applied = app.prisma.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS)));
    try {
      const rows = await Promise.race([applied, timeout]);
      if (rows === 'timeout') {
        applied.catch(() => {});
        return { database: { status: 'failing', error: `No answer within ${READY_TIMEOUT_MS} ms` }, migrations: { status: 'failing', error: 'Not checked' } };
      }
      const latencyMs = Math.round(performance.now() - started);
      const names = new Set(rows.map((r) => r.migration_name));
      const missing = (await expectedMigrations()).filter((name) => !names.has(name));
      return {
        database: { status: 'ok', latencyMs },
        migrations: missing.length ? { status: 'failing', missing } : { status: 'ok', applied: names.size },
      };
    } catch (error) {
      return { database: { status: 'failing', error: (error as Error).message.slice(0, 300) }, migrations: { status: 'failing', error: 'Not checked' } };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** From now on /health/ready answers 503 (the instance is draining for shutdown). */
    markStopping() {
      stopping = true;
    },
    live: () => json(200, { status: 'ok' }),
    async ready(): Promise<Response> {
      if (stopping) return json(503, { status: 'not_ready', checks: { shutdown: { status: 'failing', error: 'Shutting down' } } });
      const checks = await databaseCheck();
      const ok = checks.database.status === 'ok' && checks.migrations.status === 'ok';
      return json(ok ? 200 : 503, { status: ok ? 'ready' : 'not_ready', checks: { ...checks, shutdown: { status: 'ok' } } });
    },
  };
}

export type Health = ReturnType<typeof createHealth>;
