import { afterAll, describe, expect, it } from 'vitest';
import { databaseForProcesses, runEntry, type ServerProcess, startServerProcess } from '../support/processes.js';
import { parsePrometheusText, type MetricFamily } from '../support/prometheus-text.js';

// GET /metrics (docs/configuration.md, Metrics) as Prometheus scrapes it from a real server process: only to the
// METRICS_TOKEN, parsed with a Prometheus text parser; counters follow known requests with bounded labels (route
// patterns, never ids), 429s are counted, GraphQL errors by code, queues and the outbox lag and the process's own
// metrics are there. A server without a token answers 404.
const database = databaseForProcesses();
const TOKEN = 'metrics-test-token-0123456789';
const servers: ServerProcess[] = [];
afterAll(() => Promise.all(servers.map((s) => s.stop())));

async function cli(args: string[]) {
  const run = await runEntry('src/cli/admin.ts', args, database.env());
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trimEnd().split('\n').at(-1)!);
}

/** The value of the family's sample (of that sample name, for a histogram) whose labels include these. */
const value = (family: MetricFamily | undefined, labels: Record<string, string>, sampleName = family?.name) =>
  family?.samples.find((s) => s.name === sampleName && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

describe('GET /metrics', { timeout: 120_000 }, () => {
  it('answers the text format to the token only, and counts what happened', async () => {
    const { organizationId } = await cli(['create-org', '--name', 'Metrics']);
    const { key } = await cli(['create-api-key', '--org', organizationId, '--name', 'all', '--scopes', '*']);
    const server = await startServerProcess({ ...database.env(), METRICS_TOKEN: TOKEN, RATE_LIMIT_PER_API_KEY: '12', IMPORT_WORKERS: '0', FORECAST_RUN_WORKERS: '0', STOCK_SNAPSHOT_POLL_SECONDS: '0' });
    servers.push(server);
    try {
      const call = (path: string, init: RequestInit = {}) => fetch(server.baseUrl + path, init);
      const auth = { authorization: `Bearer ${key}` };

      expect((await call('/metrics')).status).toBe(401);
      expect((await call('/metrics', { headers: { authorization: 'Bearer wrong-token-of-some-length' } })).status).toBe(401);

      for (let i = 0; i < 3; i++) expect((await call('/api/products?limit=1', { headers: auth })).status).toBe(200);
      const id = '0190f0f0-0000-7000-8000-000000000000';
      expect((await call(`/api/products/${id}`, { headers: auth })).status).toBe(404);
      const gql = await call('/graphql', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query MetricsProbe { nope }', operationName: 'MetricsProbe' }) });
      expect((await gql.json()).errors.length).toBeGreaterThan(0);
      // An import queued (no worker here) shows in the queue gauge.
      expect((await call('/api/import/catalog', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify([{ externalId: 'M-1' }]) })).status).toBe(202);
      // Past the key's limit of 12 a window: refused, and counted.
      let refused = 0;
      for (let i = 0; i < 12 && !refused; i++) if ((await call('/api/products?limit=1', { headers: auth })).status === 429) refused++;
      expect(refused).toBe(1);

      const scraped = await call('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toContain('text/plain');
      const text = await scraped.text();
      const families = parsePrometheusText(text);

      const requests = families.get('scm_http_requests_total');
      expect(requests?.type).toBe('counter');
      expect(value(requests, { route: '/api/products', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(3);
      expect(value(requests, { route: '/api/products/:id', method: 'GET', status: '404' })).toBe(1);
      expect(value(requests, { route: 'graphql:MetricsProbe', method: 'POST' })).toBeGreaterThanOrEqual(1);
      // No label holds an id, a key or a query.
      expect(text).not.toContain(id);
      expect(text).not.toContain(key);
      const durations = families.get('scm_http_request_duration_seconds');
      expect(durations?.type).toBe('histogram');
      expect(value(durations, { route: '/api/products', status_class: '2xx' }, 'scm_http_request_duration_seconds_count')).toBeGreaterThanOrEqual(3);
      expect(value(durations, { route: '/api/products', status_class: '2xx', le: '+Inf' }, 'scm_http_request_duration_seconds_bucket')).toBeGreaterThanOrEqual(3);
      expect(families.get('scm_rate_limit_refusals_total')!.samples.reduce((n, s) => n + s.value, 0)).toBeGreaterThanOrEqual(1);
      expect(families.get('scm_graphql_errors_total')!.samples.reduce((n, s) => n + s.value, 0)).toBeGreaterThanOrEqual(1);
      expect(value(families.get('scm_queue_depth'), { queue: 'import', state: 'PENDING' })).toBe(1);
      expect(families.get('scm_outbox_lag_events')?.samples.map((s) => s.labels.consumer)).toEqual(expect.arrayContaining(['alerts', 'webhooks']));
      expect(families.get('scm_db_pool_connections')).toBeTruthy();
      // Every statement the requests above ran is timed (a products list runs at least two).
      const statements = families.get('scm_db_statement_duration_seconds');
      expect(statements?.type).toBe('histogram');
      expect(value(statements, {}, 'scm_db_statement_duration_seconds_count')).toBeGreaterThanOrEqual(6);
      expect(value(statements, {}, 'scm_db_statement_duration_seconds_sum')).toBeGreaterThan(0);
      for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds']) expect(families.has(name), name).toBe(true);
    } finally {
      // PGlite: one process at a time on the folder, and the next test starts another.
      await server.stop();
    }
  });

  it('is 404 on a server without METRICS_TOKEN', async () => {
    const server = await startServerProcess({ ...database.env(), IMPORT_WORKERS: '0', FORECAST_RUN_WORKERS: '0' });
    servers.push(server);
    const res = await fetch(`${server.baseUrl}/metrics`);
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('NOT_FOUND');
  });
});
