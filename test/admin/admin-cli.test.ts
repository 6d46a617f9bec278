import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { importEvents } from '../../src/services/import/jobs/jobs.js';
import { databaseForProcesses, runEntry } from '../support/processes.js';

// Every CLI run is a real process that opens (and on PGlite first creates and migrates: a fresh data folder) the database,
// so the runs are few and the timeouts generous.
const SLOW = 180_000;
const database = databaseForProcesses({ fresh: true });

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last stdout line parsed as JSON. */
  json: any;
}

async function cli(args: string[], env: Record<string, string> = database.env()): Promise<Run> {
  const run = await runEntry('src/cli/admin.ts', args, env);
  let json: unknown;
  try {
    json = JSON.parse(run.stdout.trimEnd().split('\n').at(-1) ?? '');
  } catch {
    json = undefined;
  }
  return { ...run, json };
}

/** A successful run: exit 0 and one JSON object as the only stdout line. */
async function ok(...args: string[]) {
  const run = await cli(args);
  expect(run.stderr, `stderr of ${args[0]}`).not.toMatch(/^error/m);
  expect(run.code).toBe(0);
  expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
  return run.json;
}

type Server = RunningServer & { call(method: string, url: string, options?: { token?: string; body?: unknown }): Promise<{ status: number; body: any }> };

/** Starts a server over the CLI's database (PGlite allows one process at a time: close it before the next run). */
async function withServer(fn: (server: Server) => Promise<void>, env: Record<string, string> = {}) {
  const config = { ...loadConfig({ ...database.env(), SEED_DEMO: 'false', JWT_SECRET: 'test-secret-that-is-long-enough-000000', ...env }), port: 0 };
  const running = await startServer(config);
  const call: Server['call'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(running.url + url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    return { status: response.status, body: (await response.json()) as any };
  };
  try {
    await fn({ ...running, call });
  } finally {
    await running.close();
  }
}

const uuid = expect.stringMatching(/^[0-9a-f-]{36}$/);

describe('admin CLI', () => {
  it(
    'creates an organization, user, API keys, location and channel that work over the API, then deactivates and revokes',
    async () => {
      const org = await ok('create-org', '--name', 'Acme Health', '--capabilities', 'ai.forecasting.demand, reports.advanced', '--industry', 'healthcare', '--min-shelf-life-days', '30');
      expect(org).toEqual({ organizationId: uuid });
      const orgId = org.organizationId;

      const user = await ok('create-user', '--org', orgId, '--email', 'Ops@Acme.test', '--password', 'correct horse battery', '--role', 'manager');
      expect(user).toEqual({ userId: uuid });

      const readKey = await ok('create-api-key', '--org', orgId, '--name', 'reader', '--scopes', 'inventory:read',
        '--allowed-ips', '127.0.0.1,::1', '--expires-at', '2099-01-31T00:00:00Z');
      expect(readKey).toEqual({ id: uuid, key: expect.stringMatching(/^scm_/) });
      const fencedKey = await ok('create-api-key', '--org', orgId, '--name', 'fenced', '--scopes', '*', '--allowed-ips', '10.0.0.0/8');

      expect(await ok('create-location', '--org', orgId, '--code', 'DC-1', '--name', 'Main DC')).toEqual({ locationId: uuid });
      expect(await ok('create-channel', '--org', orgId, '--name', 'Web shop', '--type', 'ECOMMERCE')).toEqual({ channelId: uuid });

      await withServer(async (server) => {
        const signIn = await server.call('POST', '/api/auth/sign-in', { body: { email: 'ops@acme.test', password: 'correct horse battery' } });
        expect(signIn.status).toBe(200);
        expect(signIn.body).toMatchObject({ organizationId: orgId, role: 'MANAGER', user: { id: user.userId } });

        const viewer = await server.call('POST', '/graphql', {
          token: signIn.body.token,
          body: { query: '{ viewer { organizationName capabilities } locations(first: 10) { edges { node { id code name } } } channels(first: 10) { edges { node { id name type } } } }' },
        });
        expect(viewer.body.data).toEqual({
          viewer: { organizationName: 'Acme Health', capabilities: ['ai.forecasting.demand', 'reports.advanced'] },
          locations: { edges: [{ node: { id: uuid, code: 'DC-1', name: 'Main DC' } }] },
          channels: { edges: [{ node: { id: uuid, name: 'Web shop', type: 'ECOMMERCE' } }] },
        });

        expect((await server.call('GET', '/api/products', { token: readKey.key })).status).toBe(200);
        // The key carries only inventory:read ...
        const write = await server.call('POST', '/api/products', { token: readKey.key, body: { sku: 'X', name: 'X' } });
        expect(write.status).toBe(403);
        // ... and the other one only works from 10.0.0.0/8.
        const fenced = await server.call('GET', '/api/products', { token: fencedKey.key });
        expect(fenced).toMatchObject({ status: 403, body: { code: 'IP_RESTRICTION' } });

        const stored = await server.app.prisma.apiKey.findUniqueOrThrow({ where: { id: readKey.id } });
        expect(stored).toMatchObject({ organizationId: orgId, scopes: ['inventory:read'], allowedIps: ['127.0.0.1', '::1'], expiresAt: new Date('2099-01-31T00:00:00Z') });
        expect(stored.keyHash).not.toContain(readKey.key);
        expect(await server.app.prisma.organization.findUniqueOrThrow({ where: { id: orgId } })).toMatchObject({ industry: 'HEALTHCARE', minShelfLifeDays: 30 });
      });

      expect(await ok('revoke-api-key', '--id', fencedKey.id)).toEqual({ id: fencedKey.id, revoked: true });
      expect(await ok('set-org-settings', '--org', orgId, '--min-shelf-life-days', '45')).toEqual({ organizationId: orgId, minShelfLifeDays: 45 });
      expect(await ok('set-org-status', '--org', orgId, '--status', 'INACTIVE')).toEqual({ organizationId: orgId, status: 'INACTIVE' });

      await withServer(async (server) => {
        expect((await server.app.prisma.organization.findUniqueOrThrow({ where: { id: orgId } })).minShelfLifeDays).toBe(45);
        expect(await server.call('GET', '/api/products', { token: fencedKey.key })).toMatchObject({ status: 401, body: { code: 'REVOKED_API_KEY' } });
        expect(await server.call('GET', '/api/products', { token: readKey.key })).toMatchObject({ status: 403, body: { code: 'INACTIVE_ORGANIZATION' } });
        const signIn = await server.call('POST', '/api/auth/sign-in', { body: { email: 'ops@acme.test', password: 'correct horse battery' } });
        expect(signIn.status).toBe(403);
      });
    },
    SLOW,
  );

  it(
    'fails the import jobs of an organization it deactivates, and they stay failed once it is active again',
    async () => {
      const { organizationId } = await ok('create-org', '--name', 'Importer');
      const { key } = await ok('create-api-key', '--org', organizationId, '--name', 'imports', '--scopes', 'import:write,inventory:read');
      const rows = [{ externalId: 'DEACT-1' }, { externalId: 'DEACT-2' }];
      let jobId = '';
      await withServer(async (server) => {
        const started = await server.call('POST', '/api/import/catalog', { token: key, body: rows });
        expect(started).toMatchObject({ status: 202, body: { state: 'PENDING', totalRows: 2 } });
        jobId = started.body.jobId;
      }, { IMPORT_WORKERS: '0' });

      expect(await ok('set-org-status', '--org', organizationId, '--status', 'INACTIVE')).toEqual({ organizationId, status: 'INACTIVE' });
      // A worker meets the job; its organization's requests are refused meanwhile, so the test hears of
      // the failure from the worker's progress events.
      const failed = new Promise<{ state: string }>((resolve) => {
        const listener = (job: { id: string; state: string }) => {
          if (job.id !== jobId) return;
          importEvents.off('progress', listener);
          resolve(job);
        };
        importEvents.on('progress', listener);
      });
      await withServer(async (server) => {
        expect(await server.call('GET', `/api/import/status/${jobId}`, { token: key })).toMatchObject({ status: 403, body: { code: 'INACTIVE_ORGANIZATION' } });
        expect(await failed).toMatchObject({ state: 'FAILED' });
      }, { IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50' });

      expect(await ok('set-org-status', '--org', organizationId, '--status', 'ACTIVE')).toEqual({ organizationId, status: 'ACTIVE' });
      await withServer(async (server) => {
        // A new job completes: the workers run, and the failed job (older, so claimed first if it were
        // claimable) is left alone.
        const next = await server.call('POST', '/api/import/catalog', { token: key, body: [{ externalId: 'AFTER-1' }] });
        expect(next.status).toBe(202);
        for (let i = 0; i < 200; i++) {
          if ((await server.call('GET', `/api/import/status/${next.body.jobId}`, { token: key })).body.state === 'COMPLETED') break;
          await new Promise((r) => setTimeout(r, 50));
        }
        const job = await server.call('GET', `/api/import/status/${jobId}`, { token: key });
        expect(job).toMatchObject({
          status: 200,
          body: { state: 'FAILED', totalRows: 2, processedRows: 0, rejectedRows: 0, completedAt: expect.any(String), failureReason: expect.stringMatching(/organization was deactivated/) },
        });
        const products = await server.call('GET', '/api/products', { token: key });
        expect(products.body.data.map((p: { sku: string }) => p.sku)).toEqual(['AFTER-1']);
      }, { IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50' });
    },
    SLOW,
  );

  it(
    'rejects invalid input with a message naming each option and exit code 1',
    async () => {
      // Input is validated before the organization is looked up.
      const org = { organizationId: '00000000-0000-7000-8000-000000000000' };
      const user = await cli(['create-user', '--org', org.organizationId, '--email', 'not-an-email', '--password', 'short', '--role', 'OWNER']);
      expect(user.code).toBe(1);
      expect(user.stdout).toBe('');
      expect(user.stderr).toMatch(/--email: Must be an email address/);
      expect(user.stderr).toMatch(/--password: At least 8 characters/);
      expect(user.stderr).toMatch(/--role: .*ADMIN/);

      const key = await cli(['create-api-key', '--org', org.organizationId, '--name', 'k', '--scopes', 'inventory:read,bogus', '--allowed-ips', '10.0.0.0/99']);
      expect(key.code).toBe(1);
      expect(key.stderr).toMatch(/--scopes: Unknown scope/);
      expect(key.stderr).toMatch(/--allowed-ips: /);

      const days = await cli(['set-org-settings', '--org', org.organizationId, '--min-shelf-life-days=-3']);
      expect(days.code).toBe(1);
      expect(days.stderr).toMatch(/--min-shelf-life-days: /);
      const noSuchOrg = await cli(['set-org-settings', '--org', org.organizationId, '--min-shelf-life-days', '7']);
      expect(noSuchOrg.code).toBe(1);
      expect(noSuchOrg.stderr).toMatch(/Organization not found/);

      const unknownOrg = await cli(['create-location', '--org', org.organizationId, '--code', 'X', '--name', 'X']);
      expect(unknownOrg.code).toBe(1);
      expect(unknownOrg.stderr).toMatch(/Organization not found/);
    },
    SLOW,
  );

  it('rejects a bad command line with usage and exit code 2, before touching the database', async () => {
    const cases: [string[], RegExp][] = [
      [[], /missing command/],
      [['launch-rockets'], /unknown command "launch-rockets"/],
      [['create-user', '--org', 'o', '--email', 'a@b.c'], /missing --password, --role/],
      [['create-org', '--name', 'X', '--colour', 'red'], /Unknown option '--colour'/],
      [['set-org-status', '--org'], /--org/],
    ];
    // A data folder that must still not exist afterwards: nothing was opened or migrated.
    const untouched = path.join(os.tmpdir(), `scm-admin-cli-untouched-${process.pid}`);
    const runs = await Promise.all(cases.map(([args]) => cli(args, { DATABASE_URL: '', DATA_DIR: untouched })));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]![0].join(' ')).toBe(2);
      expect(run.stderr).toMatch(cases[i]![1]);
      expect(run.stderr).toMatch(/usage/i);
      expect(run.stdout).toBe('');
    });
    expect(existsSync(untouched)).toBe(false);
  }, SLOW);

  it('prints usage for help', async () => {
    const run = await cli(['help']);
    expect(run.code).toBe(0);
    for (const command of ['create-org', 'create-user', 'create-api-key', 'create-location', 'create-channel', 'set-org-status', 'revoke-api-key']) {
      expect(run.stdout).toContain(command);
    }
  }, SLOW);
});
