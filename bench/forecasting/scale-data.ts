// Setup of the forecast scale benchmark (not timed): a fresh organization with the forecasting
// capability, 1,000 products × 10 locations (one channel) = 10,000 series, and their 104 weeks of demand
// history from synthetic.ts. The history is written by bulk SQL (unnest of column arrays, 100 series
// per statement), not through the import: the benchmark times generation, and the import has its own.
import { operatorContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/database.js';
import { createApiKey, createOrganization } from '../../src/services/admin/admin.js';
import { SCALE_SERIES, SCALE_WEEKS, syntheticValues, syntheticWeek } from './synthetic.js';

export const SCALE_LOCATIONS = 10;
const SERIES_PER_STATEMENT = 100;

export interface ScaleData {
  key: string;
  organizationId: string;
  series: number;
  rows: number;
  seconds: number;
}

/** Runs against a migrated (or empty: openDatabase migrates) database that no process holds open. */
export async function loadScaleData(target: { databaseUrl?: string; dataDir?: string }, seriesCount = SCALE_SERIES): Promise<ScaleData> {
  const started = performance.now();
  const database = await openDatabase(target);
  try {
    const db = database.prisma;
    const org = await createOrganization(operatorContext(db, 'bench-setup'), { name: 'Forecast scale benchmark', capabilities: ['ai.forecasting.demand'] });
    const { key } = await createApiKey(operatorContext(db, 'bench-setup'), { organizationId: org.id, name: 'forecast scale benchmark', scopes: ['*'] });
    const productCount = Math.ceil(seriesCount / SCALE_LOCATIONS);
    await db.productMaster.createMany({
      data: Array.from({ length: productCount }, (_, i) => ({ organizationId: org.id, sku: `SCALE-${String(i + 1).padStart(5, '0')}`, name: `Scale product ${i + 1}`, unitCost: 1 + (i % 50) })),
    });
    await db.location.createMany({
      data: Array.from({ length: SCALE_LOCATIONS }, (_, i) => ({ organizationId: org.id, code: `SCALE-LOC-${i + 1}`, name: `Scale location ${i + 1}`, type: 'STORE' })),
    });
    const products = (await db.productMaster.findMany({ where: { organizationId: org.id }, select: { id: true }, orderBy: { sku: 'asc' } })).map((p) => p.id);
    const locations = (await db.location.findMany({ where: { organizationId: org.id }, select: { id: true }, orderBy: { code: 'asc' } })).map((l) => l.id);
    let rows = 0;
    for (let first = 0; first < seriesCount; first += SERIES_PER_STATEMENT) {
      const productIds: string[] = [];
      const locationIds: string[] = [];
      const weeks: string[] = [];
      const units: number[] = [];
      for (let s = first; s < Math.min(seriesCount, first + SERIES_PER_STATEMENT); s++) {
        const values = syntheticValues(s);
        const offset = SCALE_WEEKS - values.length;
        values.forEach((v, t) => {
          productIds.push(products[Math.floor(s / SCALE_LOCATIONS)]!);
          locationIds.push(locations[s % SCALE_LOCATIONS]!);
          weeks.push(syntheticWeek(offset + t));
          units.push(v);
        });
      }
      rows += units.length;
      await db.$executeRaw`
        INSERT INTO demand_history (id, "organizationId", "productMasterId", "locationId", channel, "weekStart", "actualUnits", "updatedAt")
        SELECT gen_random_uuid()::text, ${org.id}, p, l, 'ALL', w::date, u, now()
        FROM unnest(${productIds}::text[], ${locationIds}::text[], ${weeks}::text[], ${units}::float8[]) AS x(p, l, w, u)`;
    }
    // As autovacuum would eventually: statistics and the visibility map, so plans are the steady-state ones.
    await db.$executeRawUnsafe('VACUUM ANALYZE');
    return { key, organizationId: org.id, series: seriesCount, rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    await database.close();
  }
}
