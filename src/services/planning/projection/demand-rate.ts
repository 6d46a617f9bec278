// Expected demand per product and location, in units per day: the one answer every planning read uses
// (transfer recommendations, the planning projection, replenishment suggestions, expiry risk).
//
// Sources, the first that has a number wins:
// 1. PLANNER: the inventory level's forecastQuantity ÷ forecastPeriodDays, where both are set and positive.
// 2. FORECAST: the forecast of record: the latest COMPLETED stored run of the most recently published scenario,
//    its weekly mean over the run's horizon, summed over channels, ÷ 7.
// 3. HISTORY (with fallbacks): the demand history of the last DEMAND_WEEKS complete ISO weeks, summed over
//    channels, ÷ (DEMAND_WEEKS × 7); a product's missing week counts as a week without demand. The sums are
//    kept ready (demand-history-rates.ts) once the organization's are made for this week, else summed here.
// 4. LEDGER (with fallbacks): the units that left on hand over the last DEMAND_WEEKS × 7 days, ÷ those days;
//    only the rows that are demand (picks, consumption, downward adjustments, imports): corrections, moves
//    within the location, transfers out and write-offs of expired stock are not.
// A rate of 0 from a source counts as no number (the next source is asked).
import { Prisma } from '../../../generated/prisma/client.js';

export const DEMAND_WEEKS = 8;

/** Monday of this ISO week in UTC: where the window of complete weeks ends. */
export const THIS_WEEK = Prisma.sql`date_trunc('week', now() AT TIME ZONE 'UTC')::date`;

/** The organization's history sums (demand-history-rates.ts) are kept for this week (a condition over no row: use it in EXISTS or NOT EXISTS). */
export const ratesKeptSql = (organizationId: string) =>
  Prisma.sql`SELECT 1 FROM demand_history_rate_weeks w WHERE w."organizationId" = ${organizationId} AND w."weekStart" = ${THIS_WEEK}`;


/** Ledger rows that lower on hand without being demand: counting, corrections, moves, transfers, destruction. */
// BOOKING_OUT: a wholesale booking's units are planned demand (outbound events while confirmed, docs/bookings.md);
// counted in the run rate as well, a booking would be counted twice.
export const NOT_DEMAND = ['COUNT', 'COUNT_CORRECTION', 'LOT_CORRECTION', 'BIN_MOVE', 'PUT_AWAY', 'TRANSFER_OUT', 'DESTROY', 'EXPIRE', 'BOOKING_OUT'];

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
        SELECT r."productMasterId" AS p, r."locationId" AS loc, r.units / ${days}::float8 AS rate
        FROM demand_history_rates r
        WHERE r."organizationId" = ${organizationId} ${scoped(scope, 'r."productMasterId"', 'r."locationId"')}
          AND EXISTS (${ratesKeptSql(organizationId)})
        UNION ALL
        SELECT h."productMasterId", h."locationId", SUM(h."actualUnits") / ${days}::float8
        FROM demand_history h
        WHERE NOT EXISTS (${ratesKeptSql(organizationId)})
          AND h."organizationId" = ${organizationId} ${scoped(scope, 'h."productMasterId"', 'h."locationId"')}
          AND h."weekStart" >= ${THIS_WEEK} - ${days}::int AND h."weekStart" < ${THIS_WEEK}
        GROUP BY 1, 2 HAVING SUM(h."actualUnits") > 0
      ),
      -- The ledger is read only for the keys no other source covers, each through its own index range
      -- (organization, product, location, createdAt): a busy location's 8 weeks of ledger are not scanned to
      -- rate products that have history or a forecast. Every ledger row belongs to a stock line of its key.
      led_keys AS (
        SELECT s."productMasterId" AS p, s."locationId" AS loc FROM stock_lines s
        WHERE s."organizationId" = ${organizationId} ${scoped(scope, 's."productMasterId"', 's."locationId"')}
        EXCEPT (SELECT p, loc FROM planner UNION ALL SELECT p, loc FROM planned UNION ALL SELECT p, loc FROM hist)
      ),
      led AS (
        SELECT k.p, k.loc, d.units / ${days}::float8 AS rate
        FROM led_keys k
        CROSS JOIN LATERAL (
          SELECT -SUM(t."deltaQty") AS units FROM stock_transactions t
          WHERE t."organizationId" = ${organizationId} AND t."productMasterId" = k.p AND t."locationId" = k.loc
            AND t.bucket = 'ON_HAND' AND t."deltaQty" < 0 AND t."transactionType" NOT IN (${Prisma.join(NOT_DEMAND)})
            AND t."createdAt" >= (now() AT TIME ZONE 'UTC') - make_interval(days => ${days}::int)
        ) d
        WHERE d.units > 0
      )`
    : Prisma.empty;
  const fallbackRows = scope.fallbacks
    ? Prisma.sql`UNION ALL SELECT p, loc, rate, 3, 'HISTORY' FROM hist UNION ALL SELECT p, loc, rate, 4, 'LEDGER' FROM led`
    : Prisma.empty;
  // Each source's rows are positive rates; the first source (by rank) that has a row for a key wins.
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
    SELECT DISTINCT ON (k.p, k.loc) k.p, k.loc, k.rate::float8 AS rate, k.rate_source
    FROM (
      SELECT p, loc, rate, 1 AS rank, 'PLANNER' AS rate_source FROM planner
      UNION ALL SELECT p, loc, rate, 2, 'FORECAST' FROM planned
      ${fallbackRows}
    ) k
    ORDER BY k.p, k.loc, k.rank`;
}
