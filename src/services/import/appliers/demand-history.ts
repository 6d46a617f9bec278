import { uuidv7s } from '../../../db/ids.js';
import { orgId } from '../../tenant.js';
import type { ChunkApplier, ImportRow } from '../jobs/kinds.js';
import type { TxContext } from '../../../db/transactions.js';
import { demandHistoryRow } from '../../../contracts/import/demand-history-row.js';
import { parseRows } from './parse-rows.js';
import { resolveLocations, resolveSkus } from './references.js';
import { normalizedLocationCode } from '../../../kernel/location-codes.js';
import { isoWeekStart } from '../../../kernel/iso-weeks.js';
import { looseText } from './row-keys.js';

/**
 * For one job's rows: the record a row upserts, loosely (SKU and location reference in any case, the
 * week; not the channel), see ROW_KEYS. A location may be named by its code or by its normalized form,
 * two texts for one location: once a job has used both forms, its rows cannot be told apart (null).
 */
export function demandRowKeys(organizationId: string): (row: unknown) => string | null {
  const normalizedPrefix = normalizedLocationCode(organizationId, '').toLowerCase();
  const forms = new Set<boolean>();
  return (row) => {
    const location = looseText(row, 'locationCode');
    forms.add(location.startsWith(normalizedPrefix));
    if (forms.size > 1) return null;
    return `${looseText(row, 'sku')}\u0000${location}\u0000${weekOfText(looseText(row, 'date').slice(0, 10))}`;
  };
}

// A file holds few distinct dates: each one's week is worked out once.
const weeks = new Map<string, string>();

/** The ISO week's Monday of a date's first 10 characters as isoDate reads them ('' when not a date). */
function weekOfText(day: string): string {
  let week = weeks.get(day);
  if (week === undefined) {
    const date = new Date(`${day}T00:00:00.000Z`);
    week = Number.isNaN(date.getTime()) ? '' : isoWeekStart(date).toISOString().slice(0, 10);
    if (weeks.size >= 10_000) weeks.clear();
    weeks.set(day, week);
  }
  return week;
}

/**
 * Upserts weekly demand by (product, location, channel, week). The rows are checked first (checkDemandRows:
 * SKUs and locations resolved, one query each); then ONE statement takes the chunk's records as a single
 * JSON parameter, keeps the last row of each key and upserts. Each row is the whole record for its week: an
 * update sets both actual and forecast units (with the defaults). Rows of one chunk with the same key: the
 * last one wins (they are not summed).
 */
export const applyDemandHistoryRows: ChunkApplier = async (ctx, rows) => {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const { accepted, rejections } = await checkDemandRows(ctx, rows);
  if (!accepted.length) return rejections;
  const ids = uuidv7s(accepted.length);
  const records = accepted.map(({ rowNumber, data, productMasterId, locationId }, i) => {
    const actual = data.actualDemand ?? 0;
    return {
      n: rowNumber,
      id: ids[i],
      p: productMasterId,
      l: locationId,
      c: data.channel ?? 'ALL',
      w: isoWeekStart(data.date).toISOString().slice(0, 10),
      a: actual,
      f: data.forecastUnits ?? actual,
    };
  });
  // ON CONFLICT DO UPDATE may touch a row once per statement: DISTINCT ON keeps the last row of each key.
  await tx.$executeRaw`
    WITH input AS (
      SELECT r.* FROM json_to_recordset(${JSON.stringify(records)}::json) AS r(n int, id text, p text, l text, c text, w date, a float8, f float8)
    ), latest AS (
      SELECT DISTINCT ON (p, l, c, w) * FROM input ORDER BY p, l, c, w, n DESC
    )
    INSERT INTO demand_history (id, "organizationId", "productMasterId", "locationId", channel, "weekStart", "actualUnits", "forecastUnits", "updatedAt")
    SELECT id, ${organizationId}, p, l, c, w, a, f, now() FROM latest
    ON CONFLICT ("organizationId", "productMasterId", "locationId", channel, "weekStart")
    DO UPDATE SET "actualUnits" = EXCLUDED."actualUnits", "forecastUnits" = EXCLUDED."forecastUnits", "updatedAt" = now()`;
  return rejections;
};

/**
 * The checks of demand rows that write nothing: each row parsed, its SKU and location resolved in the
 * caller's organization (a row may be refused for both). The rows that pass with their ids, and the
 * rejections in row order.
 */
export async function checkDemandRows(ctx: TxContext, rows: ImportRow[]) {
  const { valid, rejections } = parseRows(demandHistoryRow, rows);
  const locations = await resolveLocations(ctx, valid.map((r) => r.data.locationCode));
  const products = await resolveSkus(ctx, valid.map((r) => r.data.sku));
  const accepted: ((typeof valid)[number] & { productMasterId: string; locationId: string })[] = [];
  for (const row of valid) {
    const { rowNumber, data } = row;
    const productMasterId = products.get(data.sku);
    const locationId = locations.get(data.locationCode);
    if (!productMasterId) rejections.push({ rowNumber, field: 'sku', message: `Unknown SKU ${data.sku}` });
    if (!locationId) rejections.push({ rowNumber, field: 'locationCode', message: `Unknown location ${data.locationCode}` });
    if (productMasterId && locationId) accepted.push({ ...row, productMasterId, locationId });
  }
  return { accepted, rejections: rejections.sort((a, b) => a.rowNumber - b.rowNumber) };
}
