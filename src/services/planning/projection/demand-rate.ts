// Expected demand per product and location, in units per day: the one answer every planning read uses
// (transfer recommendations, the planning projection, replenishment suggestions, expiry risk).
//
// Sources, the first that has a number wins:
// 1. PLANNER: the inventory level's forecastQuantity ÷ forecastPeriodDays, where both are set and positive.
// 2. FORECAST: the forecast of record: the latest COMPLETED stored run of the most recently published scenario,
//    its weekly mean over the run's horizon, summed over channels, ÷ 7.
// 3. HISTORY (with fallbacks): the demand history of the last DEMAND_WEEKS complete ISO weeks, summed over
//    channels, ÷ (DEMAND_WEEKS × 7); a product's missing week counts as a week without demand.
// 4. LEDGER (with fallbacks): the units that left on hand over the last DEMAND_WEEKS × 7 days, ÷ those days;
//    only the rows that are demand (picks, consumption, downward adjustments, imports): corrections, moves
//    within the location, transfers out and write-offs of expired stock are not.
// A rate of 0 from a source counts as no number (the next source is asked).
import { Prisma } from '../../../generated/prisma/client.js';

export const DEMAND_WEEKS = 8;

/** Ledger rows that lower on hand without being demand: counting, corrections, moves, transfers, destruction. */
export const NOT_DEMAND = ['COUNT', 'COUNT_CORRECTION', 'LOT_CORRECTION', 'BIN_MOVE', 'PUT_AWAY', 'TRANSFER_OUT', 'DESTROY', 'EXPIRE'];

export type DemandRateSource = 'PLANNER' | 'FORECAST' | 'HISTORY' | 'LEDGER';

export interface DemandScope {
  organizationId: string;
  /** Only this location's rates. */
  locationId?: string | null;
  /** Only these products' rates. */
  productMasterIds?: readonly string[] | null;
  /** Only the products a subquery selects (a CTE of the enclosing statement, say). */
  productsIn?: Prisma.Sql | null;
  /** Also the demand history and the ledger (transfer recommendations use only a planner's number or a forecast). */
  fallbacks: boolean;
}

function scoped(scope: DemandScope, product: string, location: string) {
  const parts: Prisma.Sql[] = [];
  if (scope.locationId) parts.push(Prisma.sql`AND ${Prisma.raw(location)} = ${scope.locationId}`);
  if (scope.productMasterIds) parts.push(Prisma.sql`AND ${Prisma.raw(product)} = ANY(${[...scope.productMasterIds]}::text[])`);
  if (scope.productsIn) parts.push(Prisma.sql`AND ${Prisma.raw(product)} IN (${scope.productsIn})`);
  return parts.length ? Prisma.join(parts, ' ') : Prisma.empty;
}

/**
 * A SELECT of (p, loc, rate, rate_source) for every product and location of the scope that has a positive rate
 * from some source: use it as a CTE body.
 */
export function demandRateSql(scope: DemandScope): Prisma.Sql {
  const { organizationId } = scope;
  const days = DEMAND_WEEKS * 7;
  const fallbackCtes = scope.fallbacks
    ? Prisma.sql`,
      hist AS (
        SELECT h."productMasterId" AS p, h."locationId" AS loc, SUM(h."actualUnits") / ${days}::float8 AS rate
        FROM demand_history h
        WHERE h."organizationId" = ${organizationId} ${scoped(scope, 'h."productMasterId"', 'h."locationId"')}
          AND h."weekStart" >= date_trunc('week', now() AT TIME ZONE 'UTC')::date - ${days}::int
          AND h."weekStart" < date_trunc('week', now() AT TIME ZONE 'UTC')::date
        GROUP BY 1, 2 HAVING SUM(h."actualUnits") > 0
      ),
      led AS (
        SELECT t."productMasterId" AS p, t."locationId" AS loc, -SUM(t."deltaQty") / ${days}::float8 AS rate
        FROM stock_transactions t
        WHERE t."organizationId" = ${organizationId} ${scoped(scope, 't."productMasterId"', 't."locationId"')}
          AND t.bucket = 'ON_HAND' AND t."deltaQty" < 0 AND t."transactionType" NOT IN (${Prisma.join(NOT_DEMAND)})
          AND t."createdAt" >= (now() AT TIME ZONE 'UTC') - make_interval(days => ${days}::int)
        GROUP BY 1, 2
      )`
    : Prisma.empty;
  const fallbackKeys = scope.fallbacks ? Prisma.sql`UNION SELECT p, loc FROM hist UNION SELECT p, loc FROM led` : Prisma.empty;
  const fallbackJoins = scope.fallbacks
    ? Prisma.sql`LEFT JOIN hist h ON h.p = k.p AND h.loc = k.loc LEFT JOIN led l ON l.p = k.p AND l.loc = k.loc`
    : Prisma.empty;
  const rate = scope.fallbacks ? Prisma.sql`COALESCE(lv.rate, pl.rate, h.rate, l.rate)` : Prisma.sql`COALESCE(lv.rate, pl.rate)`;
  const source = scope.fallbacks
    ? Prisma.sql`CASE WHEN lv.rate IS NOT NULL THEN 'PLANNER' WHEN pl.rate IS NOT NULL THEN 'FORECAST' WHEN h.rate IS NOT NULL THEN 'HISTORY' ELSE 'LEDGER' END`
    : Prisma.sql`CASE WHEN lv.rate IS NOT NULL THEN 'PLANNER' ELSE 'FORECAST' END`;
  return Prisma.sql`
    WITH plan_run AS (
      SELECT r.id FROM forecast_runs r JOIN forecast_scenarios sc ON sc.id = r."scenarioId" AND sc."organizationId" = r."organizationId"
      WHERE r."organizationId" = ${organizationId} AND r.status = 'COMPLETED' AND sc.status = 'PUBLISHED'
      ORDER BY sc."publishedAt" DESC NULLS LAST, r."completedAt" DESC
      LIMIT 1
    ),
    planner AS (
      SELECT lv."productMasterId" AS p, lv."locationId" AS loc, lv."forecastQuantity" / lv."forecastPeriodDays" AS rate
      FROM inventory_levels lv
      WHERE lv."organizationId" = ${organizationId} ${scoped(scope, 'lv."productMasterId"', 'lv."locationId"')}
        AND lv."forecastQuantity" > 0 AND lv."forecastPeriodDays" > 0
    ),
    planned AS (
      SELECT f."productMasterId" AS p, f."locationId" AS loc, SUM(f."totalForecast" / GREATEST(cardinality(f.forecasts), 1)) / 7.0 AS rate
      FROM forecast_run_series f
      WHERE f."runId" = (SELECT id FROM plan_run) ${scoped(scope, 'f."productMasterId"', 'f."locationId"')}
      GROUP BY 1, 2 HAVING SUM(f."totalForecast") > 0
    )${fallbackCtes}
    SELECT k.p, k.loc, (${rate})::float8 AS rate, ${source} AS rate_source
    FROM (SELECT p, loc FROM planner UNION SELECT p, loc FROM planned ${fallbackKeys}) k
    LEFT JOIN planner lv ON lv.p = k.p AND lv.loc = k.loc
    LEFT JOIN planned pl ON pl.p = k.p AND pl.loc = k.loc
    ${fallbackJoins}`;
}
