// Setup of the stall benchmark (not timed), written by bulk SQL: two organizations with the forecasting
// capability.
// - `extreme`: the reproductions of issue 17 with the extreme dates the service has accepted: five series
//   whose two records are 1900-01-01 and 9990-01-01 (defect 1), and ten events from 1900 to 9999 without a
//   stated lift (defect 2), beside one ordinary series.
// - `heavy`: the largest pages each forecasting path allows over long histories: 100 products × 2 channels
//   × 520 weeks (200 series, the comparison's maximum), and 500 one-week promotions and holidays over
//   those years (the events learning reads at most).
// - `areas`: the other areas at the size of their own benchmarks (bench/harness, bench/inventory,
//   bench/transfers): 10,000 products, 15 locations, 150,000 stock lines, 100,000 inventory levels.
import { operatorContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/database.js';
import { createApiKey, createLocationFor, createOrganization } from '../../src/services/admin/admin.js';
import { loadBenchmarkData } from '../harness/data.js';
import { loadInventoryData } from '../inventory/data.js';
import { loadTransferData } from '../transfers/data.js';

export const HEAVY_PRODUCTS = 100;
export const HEAVY_WEEKS = 520;
const FIRST_HEAVY_WEEK = '2015-01-05'; // a Monday

export interface StallData {
  extremeKey: string;
  heavyKey: string;
  /** Two DRAFT scenarios of `heavy` for the comparison. */
  scenarioIds: [string, string];
  areasKey: string;
  /** A location of `areas` with 10,000 stock lines, one per product. */
  areasLocationId: string;
  seconds: number;
}

const weekAfter = (monday: string, weeks: number) => new Date(Date.parse(`${monday}T00:00:00Z`) + weeks * 7 * 86_400_000).toISOString().slice(0, 10);

export async function loadStallData(target: { databaseUrl?: string; dataDir?: string }): Promise<StallData> {
  const started = performance.now();
  const database = await openDatabase(target);
  let closed = false;
  try {
    const db = database.prisma;
    const organization = async (name: string) => {
      const org = await createOrganization(operatorContext(db, 'bench-setup'), { name, capabilities: ['ai.forecasting.demand'] });
      const { key } = await createApiKey(operatorContext(db, 'bench-setup'), { organizationId: org.id, name, scopes: ['*'] });
      const location = await createLocationFor(operatorContext(db, 'bench-setup'), { organizationId: org.id, code: 'WH1', name: 'Warehouse' });
      return { org, key, location };
    };
    const products = async (organizationId: string, count: number, prefix: string) => {
      await db.productMaster.createMany({ data: Array.from({ length: count }, (_, i) => ({ organizationId, sku: `${prefix}-${String(i).padStart(4, '0')}`, name: `${prefix} ${i}`, unitCost: 1 })) });
      return (await db.productMaster.findMany({ where: { organizationId }, select: { id: true }, orderBy: { sku: 'asc' } })).map((p) => p.id);
    };

    const extreme = await organization('Stall benchmark: extreme dates');
    const extremeProducts = await products(extreme.org.id, 6, 'EXT');
    // 1900-01-01 and 9990-01-01 are Mondays.
    await db.$executeRaw`
      INSERT INTO demand_history (id, "organizationId", "productMasterId", "locationId", channel, "weekStart", "actualUnits", "updatedAt")
      SELECT gen_random_uuid()::text, ${extreme.org.id}, p, ${extreme.location.id}, 'ALL', w::date, 100, now()
      FROM unnest(${extremeProducts.slice(0, 5)}::text[]) AS p CROSS JOIN unnest(ARRAY['1900-01-01', '9990-01-01']) AS w`;
    await db.$executeRaw`
      INSERT INTO demand_history (id, "organizationId", "productMasterId", "locationId", channel, "weekStart", "actualUnits", "updatedAt")
      SELECT gen_random_uuid()::text, ${extreme.org.id}, ${extremeProducts[5]!}, ${extreme.location.id}, 'ALL', ${FIRST_HEAVY_WEEK}::date + 7 * g, 100 + g % 7, now()
      FROM generate_series(0, 103) AS g`;
    await db.externalEvent.createMany({
      data: Array.from({ length: 10 }, (_, i) => ({ organizationId: extreme.org.id, name: `Forever ${i}`, type: 'PROMOTION' as const, startsAt: new Date('1900-01-01T00:00:00Z'), endsAt: new Date('9999-12-31T00:00:00Z') })),
    });

    const heavy = await organization('Stall benchmark: largest pages');
    const heavyProducts = await products(heavy.org.id, HEAVY_PRODUCTS, 'HEAVY');
    await db.$executeRaw`
      INSERT INTO demand_history (id, "organizationId", "productMasterId", "locationId", channel, "weekStart", "actualUnits", "updatedAt")
      SELECT gen_random_uuid()::text, ${heavy.org.id}, p, ${heavy.location.id}, c, ${FIRST_HEAVY_WEEK}::date + 7 * g,
        round((50 + 30 * sin(g / 8.3) + (ord * 7 + g * 13) % 17)::numeric, 2)::float8, now()
      FROM unnest(${heavyProducts}::text[]) WITH ORDINALITY AS x(p, ord) CROSS JOIN unnest(ARRAY['ALL', 'WEB']) AS c CROSS JOIN generate_series(0, ${HEAVY_WEEKS - 1}::int) AS g`;
    await db.externalEvent.createMany({
      data: Array.from({ length: 500 }, (_, i) => {
        const week = weekAfter(FIRST_HEAVY_WEEK, (i * 7) % HEAVY_WEEKS);
        return {
          organizationId: heavy.org.id,
          name: `Event ${i}`,
          type: i % 2 ? ('PROMOTION' as const) : ('HOLIDAY' as const),
          startsAt: new Date(`${week}T00:00:00Z`),
          endsAt: new Date(Date.parse(`${week}T00:00:00Z`) + 6 * 86_400_000),
          ...(i % 2 ? { productMasterId: heavyProducts[i % HEAVY_PRODUCTS]!, isGlobal: false } : {}),
        };
      }),
    });
    // Upcoming events without a stated lift: forecasts learn their lift.
    await db.externalEvent.createMany({
      data: ['PROMOTION', 'HOLIDAY'].map((type, i) => ({
        organizationId: heavy.org.id,
        name: `Upcoming ${type}`,
        type: type as 'PROMOTION' | 'HOLIDAY',
        startsAt: new Date(`${weekAfter(FIRST_HEAVY_WEEK, HEAVY_WEEKS + 2 + i)}T00:00:00Z`),
        endsAt: new Date(`${weekAfter(FIRST_HEAVY_WEEK, HEAVY_WEEKS + 3 + i)}T00:00:00Z`),
      })),
    });
    const scenarioIds = (await Promise.all(
      ['Base', 'Up'].map((name) => db.forecastScenario.create({ data: { organizationId: heavy.org.id, name, type: 'CUSTOM', status: 'DRAFT', createdBy: 'bench', createdByType: 'API_KEY' } as never, select: { id: true } })),
    )).map((s) => s.id) as [string, string];
    await db.$executeRawUnsafe('VACUUM ANALYZE');
    closed = true;
    await database.close();
    const areas = await loadBenchmarkData(target);
    const inventory = await loadInventoryData(target, areas.organizationId);
    await loadTransferData(target, areas.organizationId);
    return {
      extremeKey: extreme.key,
      heavyKey: heavy.key,
      scenarioIds,
      areasKey: areas.key,
      areasLocationId: inventory.adjustLocationId,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    if (!closed) await database.close();
  }
}

export const HEAVY_LAST_WEEK = weekAfter(FIRST_HEAVY_WEEK, HEAVY_WEEKS - 1);
