// The --instances part (issue 24): the products list and adjustments served by one instance, then by two instances
// on the same PostgreSQL with the load split between them (two load generators, half the connections each), on this
// one machine. Reports throughput two ÷ one and where the CPU went (the instances', PostgreSQL's): on a machine
// whose cores the instances and PostgreSQL share, the ratio says how much of a request is the service's own work
// that a second instance can take, not what N machines would give.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup } from '../harness/children.js';
import { busyShare, cpuBetween, machineCpu, sampleCpu } from '../harness/cpu.js';
import { createScratchDatabase, loadBenchmarkData, probePostgres } from '../harness/data.js';
import type { GeneratorInput } from '../inventory/request-generators.js';
import { loadInventoryData } from '../inventory/data.js';
import { load, type MeasureSpec } from '../harness/measure.js';
import { type Server, startServer, stopServer } from '../harness/servers.js';
import { settings } from '../harness/settings.js';

export const INSTANCES_TARGETS = 4;

export interface InstancesRow {
  target: string;
  instances: 1 | 2;
  requestsPerSec: number;
  p99: number;
  non2xx: number;
  /** CPU ms per request: the instances together, and PostgreSQL's backends. */
  serverMs: number;
  databaseMs: number;
  /** PostgreSQL's share of the CPU the service and its database used. */
  databaseShare: number;
  /** How busy the machine was over the run (all cores). */
  machineBusy: number;
}

export interface InstancesResult {
  rows: InstancesRow[];
  notes: string[];
  postgresVersion?: string;
}

async function measureSpread(target: string, servers: Server[], database: string, spec: (server: Server) => MeasureSpec): Promise<InstancesRow> {
  const connections = settings.connections;
  const machineBefore = machineCpu();
  const before = servers.map((s) => sampleCpu(s.child.process.pid!, database));
  // One generator per instance, the connections split evenly: the load balancer's round robin, without one.
  const results = await Promise.all(servers.map((server) => load({ ...spec(server), connections: Math.max(1, Math.round(connections / servers.length)) })));
  const after = servers.map((s) => sampleCpu(s.child.process.pid!, database));
  const machineAfter = machineCpu();
  const requests = results.reduce((sum, r) => sum + r.total + r.warmupTotal, 0);
  // The database's backends are the same set for every sample: count them once.
  const server = servers.reduce((sum, _, i) => sum + cpuBetween(before[i]!, after[i]!).server, 0);
  const databaseSeconds = cpuBetween(before[0]!, after[0]!).database;
  const row: InstancesRow = {
    target,
    instances: servers.length as 1 | 2,
    requestsPerSec: results.reduce((sum, r) => sum + r.requestsPerSec, 0),
    p99: Math.max(...results.map((r) => r.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
    serverMs: (server * 1000) / Math.max(1, requests),
    databaseMs: (databaseSeconds * 1000) / Math.max(1, requests),
    databaseShare: databaseSeconds / Math.max(1e-9, server + databaseSeconds),
    machineBusy: (machineAfter.busy - machineBefore.busy) / Math.max(1e-9, machineAfter.total - machineBefore.total),
  };
  console.log(
    `  ${target}, ${row.instances} instance${row.instances === 1 ? '' : 's'}: ${row.requestsPerSec.toFixed(0)} req/s, p99 ${row.p99} ms, ` +
      `CPU/request ${row.serverMs.toFixed(2)} ms Node + ${row.databaseMs.toFixed(2)} ms PostgreSQL (PostgreSQL ${(row.databaseShare * 100).toFixed(0)}%), machine ${(row.machineBusy * 100).toFixed(0)}% busy`,
  );
  return row;
}

export async function benchInstances(databaseUrl: string, backends: string[]): Promise<InstancesResult> {
  const result: InstancesResult = { rows: [], notes: [] };
  if (backends.includes('pglite')) result.notes.push('PGlite is not measured by the instances part (one process holds its database).');
  if (!backends.includes('postgres')) return result;
  const probe = await probePostgres(databaseUrl);
  if ('skip' in probe) {
    result.notes.push(`PostgreSQL skipped: ${probe.skip}.`);
    return result;
  }
  result.postgresVersion = probe.version;
  const scratch = await createScratchDatabase(databaseUrl);
  onCleanup(scratch.drop);
  const dir = await mkdtemp(join(tmpdir(), 'bench-instances-'));
  const servers: Server[] = [];
  try {
    const target = { databaseUrl: scratch.url };
    const { key, organizationId } = await loadBenchmarkData(target);
    const data = await loadInventoryData(target, organizationId);
    const input: GeneratorInput = { skus: [], locationIds: [], lineIds: data.adjustLineIds, pages: 1, checkItems: 1 };
    const inputFile = join(dir, 'input.json');
    await writeFile(inputFile, JSON.stringify(input));
    const env = {
      DATABASE_URL: scratch.url, SEED_DEMO: 'false', NODE_ENV: 'production', IMPORT_WORKERS: '0', FORECAST_RUN_WORKERS: '0', STOCK_SNAPSHOT_POLL_SECONDS: '0',
      DEMAND_RATE_POLL_SECONDS: '0', LOG_LEVEL: 'warn', JWT_SECRET: randomBytes(32).toString('base64url'),
    };
    const auth = { authorization: `Bearer ${key}` };
    const list = (server: Server): MeasureSpec => ({ url: `${server.base}/api/products?limit=50`, headers: auth });
    const adjust = (server: Server): MeasureSpec => ({
      url: `${server.base}/api/inventory/adjust`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      generator: { kind: 'adjust', input: inputFile },
    });
    const database = new URL(scratch.url).pathname.slice(1);
    const quiet = await busyShare(2000);
    if (quiet > 0.25) result.notes.push(`The machine was ${(quiet * 100).toFixed(0)}% busy with other work before the run.`);
    servers.push(await startServer('src/main.ts', env, 'instance-1'));
    result.rows.push(await measureSpread('REST GET /api/products?limit=50', servers, database, list));
    result.rows.push(await measureSpread('POST /api/inventory/adjust', servers, database, adjust));
    servers.push(await startServer('src/main.ts', env, 'instance-2'));
    result.rows.push(await measureSpread('REST GET /api/products?limit=50', servers, database, list));
    result.rows.push(await measureSpread('POST /api/inventory/adjust', servers, database, adjust));
  } finally {
    for (const server of servers) await stopServer(server);
    await rm(dir, { recursive: true, force: true });
  }
  return result;
}
