import type { Db } from '../../src/db/transactions.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** yyyy-mm-dd `days` days after a day. */
export const dayAfter = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** yyyy-mm-dd of the week `weeks` weeks after a Monday. */
export const weekAfter = (monday: string, weeks: number) => dayAfter(monday, 7 * weeks);

/**
 * Weekly demand history rows written straight to the table (long series are slow to send through the
 * import): one row per value, the first on `firstWeek` (a Monday), the next a week later, and so on.
 */
export async function insertWeeklyDemand(
  db: Db,
  series: { organizationId: string; productMasterId: string; locationId: string; channel?: string; firstWeek: string; values: number[] },
) {
  await db.demandHistory.createMany({
    data: series.values.map((actualUnits, i) => ({
      organizationId: series.organizationId,
      productMasterId: series.productMasterId,
      locationId: series.locationId,
      channel: series.channel ?? 'ALL',
      weekStart: new Date(`${weekAfter(series.firstWeek, i)}T00:00:00Z`),
      actualUnits,
      forecastUnits: actualUnits,
    })),
  });
}
