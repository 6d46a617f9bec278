import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, onTestFailed } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { createTenant } from '../support/fixtures.js';

// A real server process is killed (SIGKILL) in the middle of an import and started again on the same
// database: the job must finish with every row applied exactly once.

const CATALOG_ROWS = 60_000;
const INVENTORY_ROWS = 20_000;
const pgUrl = process.env.TEST_DATABASE_URL;
let dir: string;
let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | null = null;
let key: string;
let child: ChildProcess | null = null;
let baseUrl: string;
let output = '';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function startProcess() {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', JWT_SECRET: 'resume-test-secret-long-enough-0000000', IMPORT_WORKERS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${output}`);
}

async function killProcess() {
  const running = child!;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGKILL');
  await exited;
  child = null;
}

async function call(method: string, route: string, body?: unknown) {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(baseUrl + route, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    } catch (error) {
      // A reused keep-alive socket may be reset under load; reads are safe to repeat.
      if (method !== 'GET' || attempt >= 3) throw error;
    }
  }
}

async function waitFor(jobId: string, done: (job: any) => boolean, pollMs = 20) {
  for (let i = 0; i < 30_000 / pollMs * 10; i++) {
    const res = await call('GET', `/api/import/status/${jobId}`);
    expect(res.status).toBe(200);
    if (done(res.body)) return res.body;
    if (res.body.state === 'COMPLETED' || res.body.state === 'FAILED') return res.body;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error('job did not reach the expected point');
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'scm-resume-'));
  let database;
  if (pgUrl) {
    const name = `scm_resume_${process.pid}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    // From the migrated template global set-up made (the server then finds nothing to migrate).
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString() };
    database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2, migrate: false });
    dropDatabase = async () => {
      const dropper = new pg.Client({ connectionString: pgUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    };
  } else {
    env = { DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '' };
    database = await openDatabase({ dataDir: env.DATA_DIR });
  }
  key = (await createTenant(database.prisma)).key;
  await database.close();
  await startProcess();
}, 120_000);

afterAll(async () => {
  if (child) await killProcess();
  await dropDatabase?.();
  await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('a server killed in the middle of an import', () => {
  beforeEach(() => onTestFailed(() => console.error(`server output:\n${output.slice(-5000)}`)));

  it('resumes a catalog import on restart: every row applied once, none lost', async () => {
    const rows: unknown[] = Array.from({ length: CATALOG_ROWS }, (_, i) => ({ externalId: `RES-${i}`, name: `Resumed ${i}` }));
    // One bad row in each of several chunks: their errors must be recorded exactly once.
    const bad = [5, 10_500, 30_001, 59_999];
    for (const i of bad) rows[i] = { name: 'missing id' };
    const started = await call('POST', '/api/import/catalog', rows);
    expect(started.status).toBe(202);
    const jobId = started.body.jobId;

    const midway = await waitFor(jobId, (job) => job.processedRows > 0);
    expect(midway.processedRows).toBeGreaterThan(0);
    expect(midway.processedRows).toBeLessThan(CATALOG_ROWS);
    await killProcess();
    await startProcess();

    const job = await waitFor(jobId, () => false, 100);
    expect(job).toMatchObject({ state: 'COMPLETED', totalRows: CATALOG_ROWS, processedRows: CATALOG_ROWS, rejectedRows: bad.length, errorCount: bad.length });
    expect(job.errors.map((e: any) => e.row)).toEqual(bad.map((i) => i + 1));
    const products = await call('GET', '/api/products?search=RES-&limit=1');
    expect(products.body.meta.total).toBe(CATALOG_ROWS - bad.length);
  }, 300_000);

  it('resumes an inventory import on restart without writing any ledger row twice', async () => {
    const rows = Array.from({ length: INVENTORY_ROWS }, (_, i) => ({ sku: `RES-${30_002 + i}`, locationCode: 'WH1', onHand: (i % 50) + 1 }));
    const started = await call('POST', '/api/import/inventory', rows);
    expect(started.status).toBe(202);
    const jobId = started.body.jobId;

    const midway = await waitFor(jobId, (job) => job.processedRows > 0);
    expect(midway.processedRows).toBeGreaterThan(0);
    expect(midway.processedRows).toBeLessThan(INVENTORY_ROWS);
    await killProcess();
    await startProcess();

    const job = await waitFor(jobId, () => false, 100);
    expect(job).toMatchObject({ state: 'COMPLETED', processedRows: INVENTORY_ROWS, rejectedRows: 0 });
    // One ON_HAND ledger row per line changed (reserved stays 0), none repeated by the resumed chunk.
    const ledger = await call('GET', '/api/inventory/adjustments?bucket=ALL&transactionType=IMPORT&limit=1');
    expect(ledger.status).toBe(200);
    expect(ledger.body.total).toBe(INVENTORY_ROWS);
    const onHand = await call('GET', '/api/inventory/adjustments?bucket=ALL&transactionType=IMPORT&limit=500');
    expect(onHand.body.entries.every((e: any) => e.bucket === 'ON_HAND' && e.qtyBefore === 0 && e.deltaQty === e.qtyAfter)).toBe(true);
  }, 300_000);
});
