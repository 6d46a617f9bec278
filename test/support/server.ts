import { type OperatorContext, operatorContext } from '../../src/context.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestServer extends RunningServer {
  /** SQL of every query the server ran; clear it, make a request, count. */
  queries: TestDatabase['queries'];
  /** fetch against the server, JSON in and out. */
  call(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  /** POST /graphql. */
  graphql(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ status: number; body: any }>;
  /** An operator's context on the server's database, for set-up through the admin operations. */
  operator: OperatorContext;
}

/**
 * A real HTTP server on a random port over its own fresh database (or over `options.database`, which it then
 * leaves open when it closes). Import workers, forecast-run loops and the
 * stock snapshot loop are off unless the test asks for them (`IMPORT_WORKERS`, `FORECAST_RUN_WORKERS`,
 * `STOCK_SNAPSHOT_POLL_SECONDS`, `DEMAND_RATE_POLL_SECONDS`, `EVENT_PUBLISH_POLL_MS`, `WEBHOOK_POLL_MS`, `ALERT_POLL_MS`, `ALERT_SWEEP_SECONDS`, `IDEMPOTENCY_SWEEP_SECONDS`, `ROW_COUNT_COMPACT_SECONDS`, `RETENTION_SWEEP_SECONDS`), so their polling never lands in another test's query counts.
 */
export async function startTestServer(env: Record<string, string> = {}, options: { database?: TestDatabase } = {}): Promise<TestServer> {
  // A database given by the test outlives the server (it is the test's to close): servers started one after the
  // other on it see what the previous one left, as a restart with other settings would.
  const database = options.database ? { ...options.database, close: async () => {} } : await createTestDatabase();
  const config = { ...loadConfig({ SEED_DEMO: 'false', JWT_SECRET: 'test-secret-that-is-long-enough-000000', IMPORT_WORKERS: '0', FORECAST_RUN_WORKERS: '0', STOCK_SNAPSHOT_POLL_SECONDS: '0', DEMAND_RATE_POLL_SECONDS: '0', EVENT_PUBLISH_POLL_MS: '0', WEBHOOK_POLL_MS: '0', ALERT_POLL_MS: '0', ALERT_SWEEP_SECONDS: '0', IDEMPOTENCY_SWEEP_SECONDS: '0', ROW_COUNT_COMPACT_SECONDS: '0', RETENTION_SWEEP_SECONDS: '0', ...env }), port: 0 };
  const running = await startServer(config, { database });
  const call: TestServer['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(running.url + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    // Every REST error body carries the request's id, the same as its X-Request-Id header (docs/configuration.md, Logs):
    // checked here for every error answer of the suite, then taken off so that the tests compare the error itself.
    if (response.status >= 400 && path.startsWith('/api') && body && typeof body === 'object' && !Array.isArray(body)) {
      const { requestId, ...rest } = body as Record<string, unknown>;
      if (requestId !== response.headers.get('x-request-id')) throw new Error(`${method} ${path}: error body requestId ${String(requestId)} is not the X-Request-Id ${response.headers.get('x-request-id')}`);
      body = rest;
    }
    return { status: response.status, body, headers: response.headers };
  };
  return {
    ...running,
    queries: database.queries,
    call,
    graphql: async (query, variables, token) => call('POST', '/graphql', { token, body: { query, variables } }),
    operator: operatorContext(running.app.prisma, 'test-setup'),
  };
}
