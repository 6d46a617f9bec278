import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { processNextChunk } from '../../src/services/import/jobs/worker.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

const PROGRESS = `subscription ($id: ID!) {
  importJobProgress(id: $id) { id kind state totalRows processedRows rejectedRows errorCount rowErrors { row field message } startedAt completedAt }
}`;

let server: TestServer;
let a: Tenant;
let b: Tenant;
const clients: Client[] = [];

beforeAll(async () => {
  // No background workers: the tests apply chunks one at a time, so every checkpoint is seen. The stream is fed
  // by the published events: this instance publishes them.
  ({ server, a, b } = await startServerWithTwoTenants({ EVENT_PUBLISH_POLL_MS: '20' }));
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await server?.close();
});

function client(connectionParams: Record<string, unknown>) {
  const created = createClient({
    url: `${server.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: true,
  });
  clients.push(created);
  return created;
}

interface Outcome {
  results: any[];
  error?: any;
}

/** Runs one subscription to its end: every result it sent, and the error that ended it, if any. */
function follow(c: Client, query: string, variables: Record<string, unknown>): Promise<Outcome> {
  return new Promise((resolve) => {
    const results: any[] = [];
    c.subscribe({ query, variables }, { next: (r) => results.push(r), error: (error) => resolve({ results, error }), complete: () => resolve({ results }) });
  });
}

/** A subscription whose results are taken one at a time. */
function open(c: Client, query: string, variables: Record<string, unknown>) {
  const queue: any[] = [];
  let waiting: ((r: any) => void) | null = null;
  let ended!: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const push = (r: any) => (waiting ? (waiting(r), (waiting = null)) : queue.push(r));
  const stop = c.subscribe({ query, variables }, { next: push, error: (error) => (push({ error }), ended()), complete: () => ended() });
  return {
    next: (): Promise<any> => (queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => (waiting = resolve))),
    done,
    stop,
  };
}

async function startCatalogImport(token: string, rows: unknown[]) {
  const response = await server.call('POST', '/api/import/catalog', { token, body: rows });
  expect(response.status).toBe(202);
  return response.body.jobId as string;
}

/** What the workers would do: apply every stored chunk. */
async function runJobs() {
  while (await processNextChunk(server.app));
}

describe('importJobProgress subscription over graphql-ws', () => {
  it('follows an import started over REST through each checkpoint until COMPLETED, with its counts', async () => {
    // Three chunks (2,000 catalog rows each) and one bad row.
    const rows: unknown[] = Array.from({ length: 5000 }, (_, i) => ({ externalId: `SUB-${i}`, name: `Product ${i}` }));
    rows[2400] = { name: 'no externalId' };
    const jobId = await startCatalogImport(a.key, rows);
    const stream = open(client({ authorization: `Bearer ${a.key}` }), PROGRESS, { id: jobId });
    const job = async () => {
      const result = await stream.next();
      expect(result.errors).toBeUndefined();
      return result.data.importJobProgress;
    };
    expect(await job()).toMatchObject({ id: jobId, kind: 'CATALOG', state: 'PENDING', totalRows: 5000, processedRows: 0, rejectedRows: 0, completedAt: null });
    // A worker's first claim marks the job PROCESSING before it applies the first chunk.
    await processNextChunk(server.app);
    expect(await job()).toMatchObject({ state: 'PROCESSING', processedRows: 0, rejectedRows: 0, startedAt: expect.any(String) });
    await processNextChunk(server.app);
    expect(await job()).toMatchObject({ state: 'PROCESSING', processedRows: 2000, rejectedRows: 0 });
    await processNextChunk(server.app);
    expect(await job()).toMatchObject({ state: 'PROCESSING', processedRows: 4000, rejectedRows: 1, errorCount: 1 });
    await processNextChunk(server.app);
    const last = await job();
    expect(last).toMatchObject({ state: 'COMPLETED', totalRows: 5000, processedRows: 5000, rejectedRows: 1, errorCount: 1 });
    expect(last.rowErrors).toEqual([{ row: 2401, field: 'externalId', message: expect.any(String) }]);
    expect(last.completedAt).toBeTruthy();
    // The stream ends after COMPLETED.
    await stream.done;
    const status = await server.call('GET', `/api/import/status/${jobId}`, { token: a.key });
    expect(status.body).toMatchObject({ state: 'COMPLETED', processedRows: 5000, rejectedRows: 1 });
    // The events that fed it: one per commit (the start, each chunk's checkpoint), not one per row.
    const events = await server.app.prisma.domainEvent.findMany({ where: { subjectId: jobId }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.type, (e.payload as { processedRows: number }).processedRows])).toEqual([
      ['import.progressed', 0],
      ['import.progressed', 2000],
      ['import.progressed', 4000],
      ['import.finished', 5000],
    ]);
  });

  it('stops reading the job when the client unsubscribes', async () => {
    const jobId = await startCatalogImport(a.key, [{ externalId: 'SUB-STOP' }]);
    const stream = open(client({ authorization: `Bearer ${a.key}` }), PROGRESS, { id: jobId });
    expect((await stream.next()).data.importJobProgress.state).toBe('PENDING');
    stream.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    server.queries.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(server.queries.filter((q) => q.includes('import_jobs'))).toEqual([]);
    await runJobs();
  });

  it('ends at once for a job that is already over', async () => {
    const jobId = await startCatalogImport(a.key, [{ externalId: 'SUB-OVER' }]);
    await runJobs();
    const { results, error } = await follow(client({ authorization: `Bearer ${a.key}` }), PROGRESS, { id: jobId });
    expect(error).toBeUndefined();
    expect(results.map((r) => r.data.importJobProgress.state)).toEqual(['COMPLETED']);
  });

  it('is also served over HTTP as server-sent events, and GraphiQL speaks graphql-ws', async () => {
    const jobId = await startCatalogImport(a.key, [{ externalId: 'SUB-SSE' }]);
    await runJobs();
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: PROGRESS, variables: { id: jobId } }),
    });
    expect(response.status).toBe(200);
    const events = (await response.text()).split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: ').map((l) => JSON.parse(l.slice(6)));
    expect(events.map((e) => e.data.importJobProgress.state)).toEqual(['COMPLETED']);
    const graphiql = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(await graphiql.text()).toMatch(/"subscriptionsProtocol":\s*"WS"/);
  });

  it('takes the key as connectionParams.apiKey, and a session token as the bearer', async () => {
    const jobId = await startCatalogImport(a.key, [{ externalId: 'SUB-KEY' }]);
    await runJobs();
    const byKey = await follow(client({ apiKey: a.key }), PROGRESS, { id: jobId });
    expect(byKey.results.at(-1).data.importJobProgress).toMatchObject({ state: 'COMPLETED', processedRows: 1 });
    const signIn = await server.call('POST', '/api/auth/sign-in', { body: { email: a.admin.email, password: a.admin.password } });
    expect(signIn.status).toBe(200);
    const bySession = await follow(client({ authorization: `Bearer ${signIn.body.token}` }), PROGRESS, { id: jobId });
    expect(bySession.results.at(-1).data.importJobProgress).toMatchObject({ id: jobId, state: 'COMPLETED' });
  });

  it('closes the connection with 4401 for a bad key or none, and 4403 for a key from a refused address', async () => {
    const jobId = await startCatalogImport(a.key, [{ externalId: 'SUB-BAD' }]);
    const bad = await follow(client({ authorization: 'Bearer not-a-real-key' }), PROGRESS, { id: jobId });
    expect(bad.results).toEqual([]);
    expect(bad.error?.code).toBe(4401);
    expect(bad.error?.reason).toMatch(/^INVALID_API_KEY/);
    const none = await follow(client({}), PROGRESS, { id: jobId });
    expect(none.error?.code).toBe(4401);
    expect(none.error?.reason).toMatch(/^MISSING_AUTHORIZATION/);
    const elsewhere = await a.keyWith(['*'], { allowedIps: ['203.0.113.7'] });
    const refused = await follow(client({ authorization: `Bearer ${elsewhere}` }), PROGRESS, { id: jobId });
    expect(refused.error?.code).toBe(4403);
    expect(refused.error?.reason).toMatch(/^IP_RESTRICTION/);
  });

  it('refuses a key without import:read', async () => {
    const jobId = await startCatalogImport(a.key, [{ externalId: 'SUB-SCOPE' }]);
    await runJobs();
    const key = await a.keyWith(['inventory:read']);
    const { results } = await follow(client({ authorization: `Bearer ${key}` }), PROGRESS, { id: jobId });
    expect(results).toHaveLength(1);
    expect(results[0].data ?? null).toBeNull();
    expect(results[0].errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    const readOnly = await a.keyWith(['import:read']);
    const allowed = await follow(client({ authorization: `Bearer ${readOnly}` }), PROGRESS, { id: jobId });
    expect(allowed.results.at(-1).data.importJobProgress.state).toBe('COMPLETED');
  });

  it("answers NOT_FOUND for another organization's job, and for an unknown id", async () => {
    const jobId = await startCatalogImport(a.key, [{ externalId: 'SUB-ISO' }]);
    await runJobs();
    const foreign = await follow(client({ authorization: `Bearer ${b.key}` }), PROGRESS, { id: jobId });
    expect(foreign.results).toHaveLength(1);
    expect(foreign.results[0].errors[0].extensions.code).toBe('NOT_FOUND');
    expect(JSON.stringify(foreign.results[0])).not.toContain('SUB-ISO');
    const unknown = await follow(client({ authorization: `Bearer ${a.key}` }), PROGRESS, { id: 'no-such-job' });
    expect(unknown.results[0].errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
