import { z } from 'zod';
import { uuidv7 } from '../../../db/ids.js';
import { orgId } from '../../tenant.js';
import type { ChunkApplier, RowRejection } from '../kinds.js';
import { isoDate, lastPerKey, optionalNumber, optionalText, parseRows, requiredText, resolveLocations, resolveSkus } from './references.js';

const units = optionalNumber({ min: 0, max: 1e12 });

/**
 * A weekly demand record. `date` is any day of the week: the record is kept under the Monday of its ISO
 * week. Defaults: channel ALL, actualDemand 0, forecastUnits the actual units.
 */
export const demandHistoryRow = z.object(
  {
    sku: requiredText(100),
    locationCode: requiredText(200),
    date: isoDate,
    channel: optionalText(100),
    actualDemand: units,
    forecastUnits: units,
  },
  'Each row must be a JSON object',
);

/** Monday (UTC midnight) of the ISO week holding this UTC date. */
export function isoWeekStart(date: Date): Date {
  const daysSinceMonday = (date.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - daysSinceMonday));
}

/**
 * Upserts weekly demand by (product, location, channel, week) with one INSERT ... SELECT FROM unnest
 * ... ON CONFLICT per chunk, after resolving SKUs and location codes with one query each. Each row is
 * the whole record for its week: an update sets both actual and forecast units (with the defaults).
 * Rows of one chunk with the same key: the last one wins (they are not summed).
 */
export const applyDemandHistoryRows: ChunkApplier = async (tx, ctx, rows) => {
  const organizationId = orgId(ctx);
  const { valid, rejections } = parseRows(demandHistoryRow, rows);
  const products = await resolveSkus(tx, ctx, valid.map((r) => r.data.sku));
  const locations = await resolveLocations(tx, ctx, valid.map((r) => r.data.locationCode));

  const records: { productMasterId: string; locationId: string; channel: string; weekStart: string; actual: number; forecast: number }[] = [];
  for (const { rowNumber, data } of valid) {
    const productMasterId = products.get(data.sku);
    const locationId = locations.get(data.locationCode);
    const problems: RowRejection[] = [];
    if (!productMasterId) problems.push({ rowNumber, field: 'sku', message: `Unknown SKU ${data.sku}` });
    if (!locationId) problems.push({ rowNumber, field: 'locationCode', message: `Unknown location ${data.locationCode}` });
    if (!productMasterId || !locationId) {
      rejections.push(...problems);
      continue;
    }
    const actual = data.actualDemand ?? 0;
    records.push({
      productMasterId,
      locationId,
      channel: data.channel ?? 'ALL',
      weekStart: isoWeekStart(data.date).toISOString().slice(0, 10),
      actual,
      forecast: data.forecastUnits ?? actual,
    });
  }
  // ON CONFLICT DO UPDATE may touch a row once per statement: keep the last row of each key.
  const unique = lastPerKey(records, (r) => `${r.productMasterId}|${r.locationId}|${r.channel}|${r.weekStart}`);
  if (unique.length) {
    await tx.$executeRaw`
      INSERT INTO demand_history (id, "organizationId", "productMasterId", "locationId", channel, "weekStart", "actualUnits", "forecastUnits", "updatedAt")
      SELECT r.id, ${organizationId}, r.p, r.l, r.c, r.w, r.a, r.f, now()
      FROM unnest(${unique.map(() => uuidv7())}::text[], ${unique.map((r) => r.productMasterId)}::text[], ${unique.map((r) => r.locationId)}::text[],
                  ${unique.map((r) => r.channel)}::text[], ${unique.map((r) => r.weekStart)}::date[], ${unique.map((r) => r.actual)}::float8[],
                  ${unique.map((r) => r.forecast)}::float8[]) AS r(id, p, l, c, w, a, f)
      ON CONFLICT ("organizationId", "productMasterId", "locationId", channel, "weekStart")
      DO UPDATE SET "actualUnits" = EXCLUDED."actualUnits", "forecastUnits" = EXCLUDED."forecastUnits", "updatedAt" = now()`;
  }
  return rejections.sort((a, b) => a.rowNumber - b.rowNumber);
};
