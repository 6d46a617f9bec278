// The forecast accuracy part through the service: a fresh organization with the ai.forecasting.demand
// capability, the 45 Walmart store series imported by POST /api/import/demand-history (one product, a
// location per store), then one GET /api/forecast per store from the first held-out week, scored like the
// in-process methods of accuracy.ts against the held-out actuals.
import { operatorContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/database.js';
import { createApiKey, createOrganization } from '../../src/services/admin/admin.js';
import { sleep } from '../harness/children.js';
import { getJson, startServer, stopServer } from '../harness/servers.js';
import { LOADER_BATCH, LOADER_POLL_MS } from '../import/data.js';
import { HOLDOUT, LEVELS, readStores, score, type Score, type StoreSeries } from './accuracy.js';

const SKU = 'WALMART-WEEKLY-SALES';
const DAY = 86_400_000;
const storeCode = (store: string) => `STORE-${store.padStart(2, '0')}`;
/** The file's week ends on a Friday (weekStarts are the Saturdays before): the import keys it under the Monday of that Friday's ISO week. */
const fridayOf = (weekStart: string) => new Date(Date.parse(weekStart) + 6 * DAY).toISOString().slice(0, 10);
const mondayOf = (weekStart: string) => new Date(Date.parse(weekStart) + 2 * DAY).toISOString().slice(0, 10);

async function createForecastOrganization(target: { databaseUrl?: string; dataDir?: string }, stores: StoreSeries[]) {
  const database = await openDatabase(target);
  try {
    const db = database.prisma;
    const org = await createOrganization(operatorContext(db, 'bench-setup'), { name: 'Forecast benchmark organization', capabilities: ['ai.forecasting.demand'] });
    const { key } = await createApiKey(operatorContext(db, 'bench-setup'), { organizationId: org.id, name: 'forecast benchmark', scopes: ['forecast:read', 'import:write'] });
    const product = await db.productMaster.create({ data: { organizationId: org.id, sku: SKU, name: 'Walmart weekly store sales' } });
    await db.location.createMany({ data: stores.map((s) => ({ organizationId: org.id, code: storeCode(s.store), name: `Walmart store ${s.store}`, type: 'STORE' })) });
    const locations = await db.location.findMany({ where: { organizationId: org.id }, select: { id: true, code: true } });
    return { key, productId: product.id, locationIds: new Map(locations.map((l) => [l.code, l.id])) };
  } finally {
    await database.close();
  }
}

async function importHistory(base: string, key: string, stores: StoreSeries[]) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const rows = stores.flatMap((s) => s.weekStarts.map((w, i) => ({ sku: SKU, locationCode: storeCode(s.store), date: fridayOf(w), actualDemand: s.values[i]! })));
  const started = performance.now();
  for (let offset = 0; offset < rows.length; offset += LOADER_BATCH) {
    const response = await fetch(`${base}/api/import/demand-history`, { method: 'POST', headers, body: JSON.stringify(rows.slice(offset, offset + LOADER_BATCH)), signal: AbortSignal.timeout(120_000) });
    let job = await response.json();
    if (response.status !== 202) throw new Error(`POST /api/import/demand-history answered ${response.status}: ${JSON.stringify(job).slice(0, 500)}`);
    while (job.state !== 'COMPLETED' && job.state !== 'FAILED') {
      await sleep(LOADER_POLL_MS);
      const status = await getJson(`${base}/api/import/status/${job.jobId}`, { headers });
      if (status.status !== 200) throw new Error(`status of ${job.jobId}: ${status.status} ${JSON.stringify(status.body).slice(0, 500)}`);
      job = status.body;
    }
    if (job.state === 'FAILED' || job.rejectedRows) throw new Error(`demand-history import ${job.jobId}: ${job.state}, ${job.rejectedRows} rejected ${JSON.stringify(job).slice(0, 500)}`);
  }
  return { rows: rows.length, seconds: (performance.now() - started) / 1000 };
}

export interface ApiAccuracy {
  backend: string;
  score: Score;
  importRows: number;
  importSeconds: number;
  seriesPerSecond: number;
  msPerRequest: { first: number; mean: number; p50: number; max: number };
}

/** Runs against a migrated database (a scratch PostgreSQL database or a PGlite folder) that no process holds open. */
export async function accuracyThroughApi(backend: string, target: { databaseUrl?: string; dataDir?: string }): Promise<ApiAccuracy> {
  const stores = readStores();
  const { key, productId, locationIds } = await createForecastOrganization(target, stores);
  const dbEnv: Record<string, string> = target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir! };
  const server = await startServer('src/main.ts', dbEnv, `forecast-${backend}`);
  try {
    const imported = await importHistory(server.base, key, stores);
    const headers = { authorization: `Bearer ${key}` };
    const answers = new Map<string, { median: number[]; bounds: Record<number, { lower: number[]; upper: number[] }> }>();
    const methods: Record<string, number> = {};
    const times: number[] = [];
    const started = performance.now();
    for (const s of stores) {
      const cut = s.values.length - HOLDOUT;
      const from = mondayOf(s.weekStarts[cut]!);
      const query = new URLSearchParams({ productMasterId: productId, locationId: locationIds.get(storeCode(s.store))!, from, horizon: String(HOLDOUT), levels: LEVELS.join(',') });
      const asked = performance.now();
      const response = await fetch(`${server.base}/api/forecast?${query}`, { headers, signal: AbortSignal.timeout(60_000) });
      const body = await response.json();
      times.push(performance.now() - asked);
      if (response.status !== 200 || body.data?.length !== 1) throw new Error(`GET /api/forecast for store ${s.store} answered ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
      const series = body.data[0];
      if (series.points[0]?.periodStart !== from || series.points.length !== HOLDOUT) throw new Error(`store ${s.store}: forecast starts ${series.points[0]?.periodStart} with ${series.points.length} points, expected ${from} and ${HOLDOUT}`);
      methods[series.method] = (methods[series.method] ?? 0) + 1;
      answers.set(s.store, {
        median: series.points.map((p: any) => p.forecast),
        bounds: Object.fromEntries(LEVELS.map((level, i) => [level, { lower: series.points.map((p: any) => p.intervals[i].lower), upper: series.points.map((p: any) => p.intervals[i].upper) }])),
      });
    }
    const seconds = (performance.now() - started) / 1000;
    const sorted = [...times].sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    const scored = score(`engine via GET /api/forecast (${backend})`, stores, (train) => answers.get(train.store)!);
    return {
      backend,
      score: { ...scored, msPerSeries: mean, methods },
      importRows: imported.rows,
      importSeconds: imported.seconds,
      seriesPerSecond: stores.length / seconds,
      msPerRequest: { first: times[0]!, mean, p50: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]! },
    };
  } finally {
    await stopServer(server);
  }
}
