// Prometheus metrics of this process (prom-client): one registry per process, as Prometheus sees a process (every
// server of a test process shares it). Written by the HTTP handler, the GraphQL endpoint and the workers; served by
// src/server/metrics.ts.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** At most this many distinct values per label: a client chooses its operation names, and must not grow the series. */
const MAX_LABEL_VALUES = 200;

class BoundedLabel {
  private readonly seen = new Set<string>();
  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= MAX_LABEL_VALUES) return 'other';
    this.seen.add(value);
    return value;
  }
}

export interface Metrics {
  registry: Registry;
  /** One answered HTTP request: its route pattern (REST) or GraphQL operation, method, status and seconds. */
  request(route: string, method: string, status: number, seconds: number): void;
  graphqlError(code: string): void;
  /** A query or mutation of /graphql ran: compiled by graphql-jit, or walked by graphql-js. */
  graphqlExecution(engine: 'jit' | 'graphql-js'): void;
  /** One SQL statement of the service's database client ran, in seconds (waiting for a pooled connection included). */
  statement(seconds: number): void;
  /** A job finished: its kind (import kind, or forecast) and seconds. */
  jobDone(kind: 'import' | 'forecast_run', state: string, seconds: number): void;
}

let current: Metrics | undefined;

/** The process's metrics, made once (every server of a process shares them, as Prometheus sees one process). */
export function processMetrics(): Metrics {
  current ??= createMetrics();
  return current;
}

function createMetrics(): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'supply-chain' });
  // Process CPU, memory, handles, GC and the event loop's delay (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const routes = new BoundedLabel();
  const codes = new BoundedLabel();
  const requests = new Counter({ name: 'scm_http_requests_total', help: 'HTTP requests answered, by route (REST pattern or graphql:<operation>), method and status.', labelNames: ['route', 'method', 'status'], registers: [registry] });
  const durations = new Histogram({
    name: 'scm_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route and status class.',
    labelNames: ['route', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const refusals = new Counter({ name: 'scm_rate_limit_refusals_total', help: 'Requests refused with 429 (request limits, the sign-in lock), by route.', labelNames: ['route'], registers: [registry] });
  const graphqlErrors = new Counter({ name: 'scm_graphql_errors_total', help: 'Errors in GraphQL answers of /graphql, by code.', labelNames: ['code'], registers: [registry] });
  const executions = new Counter({ name: 'scm_graphql_executions_total', help: 'Queries and mutations of /graphql executed, by engine: jit (compiled by graphql-jit, from the second run of a document by default; GRAPHQL_JIT_AFTER_RUNS) or graphql-js.', labelNames: ['engine'], registers: [registry] });
  const jobs = new Histogram({
    name: 'scm_job_duration_seconds',
    help: 'Import jobs and forecast runs, from start to end, by kind and final state.',
    labelNames: ['kind', 'state'],
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [registry],
  });
  const statements = new Histogram({
    name: 'scm_db_statement_duration_seconds',
    help: 'SQL statements of the database client, from sending to the last row (waiting for a pooled connection included).',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [registry],
  });
  return {
    registry,
    statement(seconds) {
      statements.observe(seconds);
    },
    request(route, method, status, seconds) {
      const label = routes.of(route);
      requests.inc({ route: label, method, status: String(status) });
      durations.observe({ route: label, status_class: `${Math.floor(status / 100)}xx` }, seconds);
      if (status === 429) refusals.inc({ route: label });
    },
    graphqlError(code) {
      graphqlErrors.inc({ code: codes.of(code) });
    },
    graphqlExecution(engine) {
      executions.inc({ engine });
    },
    jobDone(kind, state, seconds) {
      jobs.observe({ kind, state }, seconds);
    },
  };
}

