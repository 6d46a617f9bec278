import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseForProcesses, runEntry, type ServerProcess, startServerProcess } from '../support/processes.js';

// The server as an operator runs it, logs parsed from its stdout: one JSON line per request with its request id
// (the caller's X-Request-Id or a new one, echoed in the answer and in REST error bodies), tenant, actor, route or
// GraphQL operation, status and duration; an unexpected failure logged with its request id; no secret in any line.
const database = databaseForProcesses();
let server: ServerProcess | undefined;

afterAll(() => server?.stop());

async function cli(args: string[]) {
  const run = await runEntry('src/cli/admin.ts', args, database.env());
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trimEnd().split('\n').at(-1)!);
}

/** Every JSON line the server wrote so far. */
const logLines = () =>
  server!
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);

async function lineOf(requestId: string): Promise<Record<string, any>> {
  for (let i = 0; i < 100; i++) {
    const found = logLines().find((l) => l.requestId === requestId && l.msg === 'request');
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no request line for ${requestId}:\n${server!.output().slice(-3000)}`);
}

describe('request logs', { timeout: 120_000 }, () => {
  it('writes one JSON line per request with its id, caller and outcome, and no secret anywhere', async () => {
    const { organizationId } = await cli(['create-org', '--name', 'Logs']);
    const { key } = await cli(['create-api-key', '--org', organizationId, '--name', 'all', '--scopes', '*']);
    const password = 'correct-horse-battery-staple-42';
    await cli(['create-user', '--org', organizationId, '--email', 'logs@example.com', '--password', password, '--role', 'ADMIN']);
    server = await startServerProcess({ ...database.env(), LOG_LEVEL: 'info', LOG_FORMAT: 'json', IMPORT_WORKERS: '0', FORECAST_RUN_WORKERS: '0', STOCK_SNAPSHOT_POLL_SECONDS: '0' });
    const call = (path: string, init: RequestInit = {}) => fetch(server!.baseUrl + path, init);
    const auth = { authorization: `Bearer ${key}` };

    // A REST list with the caller's request id: echoed, and the line names the route, the tenant and the key.
    const listed = await call('/api/products?limit=1', { headers: { ...auth, 'x-request-id': 'trace-abc.1' } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-request-id')).toBe('trace-abc.1');
    expect(await lineOf('trace-abc.1')).toMatchObject({
      level: 30, method: 'GET', path: '/api/products', route: '/api/products', status: 200, organizationId, actorType: 'apiKey', durationMs: expect.any(Number),
    });

    // A REST refusal: a new id (the one given is not a sane token), in the header and in the error body.
    const missing = await call('/api/products/0190f0f0-0000-7000-8000-000000000000', { headers: { ...auth, 'x-request-id': 'bad id with spaces' } });
    expect(missing.status).toBe(404);
    const made = missing.headers.get('x-request-id')!;
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND', requestId: made });
    expect(await lineOf(made)).toMatchObject({ status: 404, route: '/api/products/:id', organizationId });

    // A GraphQL operation: the line names it.
    const gql = await call('/graphql', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query ProductsForLogTest { productsPage(limit: 1) { total } }', operationName: 'ProductsForLogTest' }) });
    expect(gql.status).toBe(200);
    expect(await lineOf(gql.headers.get('x-request-id')!)).toMatchObject({ path: '/graphql', operation: 'ProductsForLogTest', status: 200, actorType: 'apiKey' });

    // A sign-in with a password, and a wrong one: neither the password nor the token it gives is logged.
    const signIn = await call('/api/auth/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'logs@example.com', password }) });
    expect(signIn.status).toBe(200);
    const { token } = (await signIn.json()) as { token: string };
    await call('/api/auth/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'logs@example.com', password: `${password}-wrong` }) });
    const asUser = await call('/api/products?limit=1', { headers: { authorization: `Bearer ${token}`, cookie: `scm_session=${token}` } });
    expect(await lineOf(asUser.headers.get('x-request-id')!)).toMatchObject({ actorType: 'user', organizationId });

    await new Promise((r) => setTimeout(r, 200));
    const output = server.output();
    for (const secret of [key, password, token]) expect(output).not.toContain(secret);
    // Every line is JSON in this format (the banner too).
    const lines = output.split('\n').filter(Boolean);
    expect(lines.every((line) => line.startsWith('{')), lines.find((l) => !l.startsWith('{'))).toBe(true);
  });

  it('writes a line when an import job starts and when it finishes, with its id, organization and counts', async () => {
    await server?.stop();
    const { organizationId } = await cli(['create-org', '--name', 'Job logs']);
    const { key } = await cli(['create-api-key', '--org', organizationId, '--name', 'jobs', '--scopes', '*']);
    server = await startServerProcess({ ...database.env(), LOG_LEVEL: 'info', LOG_FORMAT: 'json', IMPORT_WORKERS: '1', FORECAST_RUN_WORKERS: '0', STOCK_SNAPSHOT_POLL_SECONDS: '0' });
    const posted = await fetch(`${server.baseUrl}/api/import/catalog`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ externalId: 'LOG-1' }, { externalId: 'LOG-2' }]),
    });
    expect(posted.status).toBe(202);
    const { jobId } = (await posted.json()) as { jobId: string };
    const lineFor = async (msg: string) => {
      for (let i = 0; i < 200; i++) {
        const found = logLines().find((l) => l.msg === msg && l.jobId === jobId);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no "${msg}" line for ${jobId}:\n${server!.output().slice(-3000)}`);
    };
    expect(await lineFor('import job started')).toMatchObject({ level: 30, organizationId, kind: 'CATALOG', totalRows: 2 });
    expect(await lineFor('import job finished')).toMatchObject({ level: 30, organizationId, kind: 'CATALOG', processedRows: 2, rejectedRows: 0, durationMs: expect.any(Number) });
    expect(server.output()).not.toContain(key);
  });

  // A table gone under a running server (PostgreSQL only: a second session cannot reach PGlite's files) makes
  // an unexpected failure of each door: its error line carries the request's id, and the caller learns nothing.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('logs an unexpected failure of REST and of GraphQL with the request id', async () => {
    await server?.stop();
    const { organizationId } = await cli(['create-org', '--name', 'Failure logs']);
    const { key } = await cli(['create-api-key', '--org', organizationId, '--name', 'fail', '--scopes', '*']);
    server = await startServerProcess({ ...database.env(), LOG_LEVEL: 'info', LOG_FORMAT: 'json', IMPORT_WORKERS: '0', FORECAST_RUN_WORKERS: '0', STOCK_SNAPSHOT_POLL_SECONDS: '0' });
    const client = new pg.Client({ connectionString: database.env().DATABASE_URL });
    await client.connect();
    try {
      await client.query('ALTER TABLE product_masters RENAME TO product_masters_gone');
      const auth = { authorization: `Bearer ${key}` };
      const rest = await fetch(`${server.baseUrl}/api/products?limit=1`, { headers: { ...auth, 'x-request-id': 'fail-rest-1' } });
      expect(rest.status).toBe(500);
      expect(await rest.json()).toEqual({ error: 'Internal Server Error', code: 'INTERNAL_SERVER_ERROR', message: 'The request failed; retry later.', requestId: 'fail-rest-1' });
      const gql = await fetch(`${server.baseUrl}/graphql`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'x-request-id': 'fail-gql-1' },
        body: JSON.stringify({ query: 'query FailingForLogTest { productsPage(limit: 1) { total } }' }),
      });
      const body = await gql.json();
      expect(body.errors[0]).toMatchObject({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      expect(JSON.stringify(body)).not.toContain('product_masters');
      for (const requestId of ['fail-rest-1', 'fail-gql-1']) {
        let line: Record<string, any> | undefined;
        for (let i = 0; i < 100 && !line; i++) {
          line = logLines().find((l) => l.requestId === requestId && l.level === 50 && l.msg === 'unexpected error');
          if (!line) await new Promise((r) => setTimeout(r, 50));
        }
        expect(line, `${requestId}:\n${server.output().slice(-3000)}`).toBeDefined();
        expect(JSON.stringify(line!.err)).toContain('product_masters');
      }
    } finally {
      await client.query('ALTER TABLE IF EXISTS product_masters_gone RENAME TO product_masters');
      await client.end();
    }
  });
});

