// Channel availability to promise (ATP): the reads. The rule itself is in channel-atp-rule.ts.
import type { RequestContext } from '../../../context.js';
import { CHANNEL_ATP_PAGE } from '../../../contracts/inventory/channel-atp/channel-atp-queries.js';
import { notFound, validationError } from '../../../kernel/errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { totalOf } from '../../../kernel/quantity-totals.js';
import { type ListWindow, orgId, pageWindow } from '../../tenant.js';
import { type ChannelColumn, type StockTotals, channelEntry, productAtp, type LotQuantities, emptyTotals, addToTotals, lotOf } from './channel-atp-rule.js';
import { availableQty, BUCKET_COLUMN, type LineQuantities, lineExcluded, startOfTodayUtc } from '../stock-lines/quantities.js';
import { inTransaction } from '../../../db/transactions.js';
import { productSearch, productSearchSql } from '../../search.js';
import { countedRowsSql } from '../../row-counts/counted-rows.js';
import { directRows } from '../../../db/direct-rows.js';
import type { Location } from '../../../generated/prisma/client.js';

export async function requireLocation(ctx: RequestContext, locationId: string | null | undefined) {
  if (!locationId) throw validationError({ locationId: ['Required'] }, 'locationId is required');
  const [location] = await directRows<Location>(ctx, Prisma.sql`
    SELECT id, "organizationId", code, name, type, "createdAt", "updatedAt" FROM locations WHERE id = ${locationId} AND "organizationId" = ${orgId(ctx)}`);
  if (!location) throw notFound('Location');
  return location;
}

interface ColumnRow extends Omit<ChannelColumn, 'lowAtpThreshold'> {
  lowAtpThreshold: number | null;
  locationId: string | null;
}

/**
 * The organization's channels in name order, each with its policy at `locationId` (one row per
 * channel), or with every policy (locationId undefined: one row per channel and policy location).
 */
async function channelRows(ctx: RequestContext, locationId: string | undefined): Promise<ColumnRow[]> {
  const at = locationId ? Prisma.sql`AND p."locationId" = ${locationId}` : Prisma.empty;
  return directRows<ColumnRow>(ctx, Prisma.sql`
    SELECT c.id AS "channelId", c.name AS "channelName", c.type AS "channelType", p.id AS "policyId",
           p."locationId", p.mode::text AS mode, p."sharePct", p."fixedQuantity", p."lowAtpThreshold"
    FROM channels c
    LEFT JOIN channel_allocation_policies p ON p."channelId" = c.id AND p."organizationId" = c."organizationId" ${at}
    WHERE c."organizationId" = ${orgId(ctx)}
    ORDER BY c.name, c.id`);
}

const toColumn = (row: ColumnRow): ChannelColumn => ({
  channelId: row.channelId,
  channelName: row.channelName,
  channelType: row.channelType,
  policyId: row.policyId,
  mode: row.mode,
  sharePct: row.sharePct,
  fixedQuantity: row.fixedQuantity,
  lowAtpThreshold: row.lowAtpThreshold ?? 0,
});

/** Channel ids from `channels` and `channelId` (either may be empty); unknown or foreign ids are 404. */
function pickChannels<T extends { channelId: string }>(all: T[], wanted: string[]): T[] {
  if (!wanted.length) return all;
  const known = new Set(all.map((c) => c.channelId));
  if (wanted.some((id) => !known.has(id))) throw notFound('Channel');
  const set = new Set(wanted);
  return all.filter((c) => set.has(c.channelId));
}

export async function channelColumns(ctx: RequestContext, locationId: string, wanted: string[] = []) {
  return pickChannels((await channelRows(ctx, locationId)).map(toColumn), wanted);
}

/** Summed quantities as read (SUM gives bigint) as numbers. */
const quantitiesOf = (row: Record<keyof LineQuantities, bigint | number>): LineQuantities => ({
  qtyOnHand: totalOf(row.qtyOnHand),
  qtyReserved: totalOf(row.qtyReserved),
  qtyOnHold: totalOf(row.qtyOnHold),
  qtyPicked: totalOf(row.qtyPicked),
  qtyRecalled: totalOf(row.qtyRecalled),
  qtyExpired: totalOf(row.qtyExpired),
});

export interface ChannelSummaryEntry {
  channelId: string;
  channelName: string;
  channelType: string;
  /** Locations holding stock (within the filter) where the channel was evaluated. */
  locations: number;
  /** Locations (within the filter) where the channel has an allocation policy. */
  policyCount: number;
  totalAtp: number;
  criticalCount: number;
  lowCount: number;
  okCount: number;
}

interface LotStateRow {
  expiryDate: Date | null;
  /** The same date as the database writes it, to hand back to it exactly. */
  day: string | null;
  recalled: boolean;
}

type BucketRow = { locationId: string; pairs: bigint } & Record<keyof LineQuantities, bigint>;

// The summary waits for a connection like any read under load, not Prisma's 2 s transaction default.
const SUMMARY_TRANSACTION = { maxWait: 10_000, timeout: 15_000 };

/**
 * Product-location pairs with stock (within the filter), counted by location and by what their usable
 * lines add up to. Those are all the rule needs, so PostgreSQL does the counting and Node applies the
 * rule once per distinct input instead of once per pair (the benchmark's 50,000 pairs make about 3,800
 * buckets), without a second copy of the rule in SQL.
 *
 * Which lots are excluded is decided by the rule (lineExcluded) on the organization's distinct lot
 * states (expiry date, recalled), read in the same snapshot as the stock (REPEATABLE READ), so a lot
 * created between the two reads cannot slip through undecided. Summing a pair's usable lines before
 * availableQty gives what summing availableQty per lot gives: the CHECK keeps every line's parts
 * within its on hand, so availableQty never clips at 0.
 */
async function stockBuckets(ctx: RequestContext, locationId: string | undefined) {
  const org = orgId(ctx);
  const today = startOfTodayUtc();
  const columns = Object.values(BUCKET_COLUMN).map((name) => Prisma.raw(`"${name}"`));
  const sums = Prisma.join(columns.map((c) => Prisma.sql`SUM(CASE WHEN e.id IS NULL THEN s.${c} ELSE 0 END)::bigint AS ${c}`));
  const keys = Prisma.join(columns);
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    await tx.$executeRaw`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`;
    const states = await tx.$queryRaw<LotStateRow[]>`
      SELECT "expiryDate", "expiryDate"::text AS day, recalled
      FROM (SELECT DISTINCT "expiryDate", recalled FROM lots WHERE "organizationId" = ${org}) AS s`;
    const excluded = states.filter((state) => lineExcluded({ expiryDate: state.expiryDate, recalled: state.recalled }, {}, today));
    const at = locationId ? Prisma.sql`AND s."locationId" = ${locationId}` : Prisma.empty;
    // The join matches undated states too: (day IS NULL) tells them apart from any real date, so the
    // placeholder date stands for "no date" only. OFFSET 0 keeps the excluded lots one hashed set: without
    // it the generic plan of this prepared statement looks the lot of every line up on its own. Only the
    // organization's lots are read, as everywhere: a line's lot is always its organization's.
    return tx.$queryRaw<BucketRow[]>`
      WITH pairs AS (
        SELECT s."locationId", ${sums}
        FROM stock_lines s
        LEFT JOIN (
          SELECT l.id FROM lots l
          JOIN unnest(${excluded.map((state) => state.day)}::date[], ${excluded.map((state) => state.recalled)}::boolean[]) AS x(day, recalled)
            ON (x.day IS NULL) = (l."expiryDate" IS NULL) AND coalesce(x.day, 'epoch') = coalesce(l."expiryDate", 'epoch')
           AND x.recalled = l.recalled
          WHERE l."organizationId" = ${org}
          OFFSET 0
        ) AS e ON e.id = s."lotId"
        WHERE s."organizationId" = ${org} ${at}
        GROUP BY s."locationId", s."productMasterId"
      )
      SELECT "locationId", ${keys}, COUNT(*) AS pairs FROM pairs GROUP BY "locationId", ${keys}`;
  }, SUMMARY_TRANSACTION);
}

/** Per channel, over every product with stock at every location (or one location). */
export async function channelSummary(ctx: RequestContext, args: { locationId?: string | null }): Promise<ChannelSummaryEntry[]> {
  const locationId = args.locationId ?? undefined;
  if (locationId) await requireLocation(ctx, locationId);
  const [rows, bucketRows] = await Promise.all([channelRows(ctx, locationId), stockBuckets(ctx, locationId)]);
  const buckets = bucketRows.map((row) => ({
    locationId: row.locationId,
    pairs: totalOf(row.pairs),
    totals: { ...emptyTotals(), available: availableQty(quantitiesOf(row)) },
  }));
  const stockLocations = new Set(buckets.map((b) => b.locationId));
  const channels = new Map<string, { base: ColumnRow; byLocation: Map<string, ChannelColumn> }>();
  for (const row of rows) {
    let channel = channels.get(row.channelId);
    if (!channel) channels.set(row.channelId, (channel = { base: row, byLocation: new Map() }));
    if (row.policyId && row.locationId) channel.byLocation.set(row.locationId, toColumn(row));
  }
  return [...channels.values()].map(({ base, byLocation }) => {
    const unrestricted = toColumn({ ...base, policyId: null, mode: null, sharePct: null, fixedQuantity: null, lowAtpThreshold: null });
    const entry: ChannelSummaryEntry = {
      channelId: base.channelId,
      channelName: base.channelName,
      channelType: base.channelType,
      locations: stockLocations.size,
      policyCount: byLocation.size,
      totalAtp: 0,
      criticalCount: 0,
      lowCount: 0,
      okCount: 0,
    };
    for (const bucket of buckets) {
      const { atp, severity } = channelEntry(byLocation.get(bucket.locationId) ?? unrestricted, bucket.totals);
      entry.totalAtp += atp * bucket.pairs;
      if (severity === 'CRITICAL') entry.criticalCount += bucket.pairs;
      else if (severity === 'LOW') entry.lowCount += bucket.pairs;
      else entry.okCount += bucket.pairs;
    }
    return entry;
  });
}

// ---- the channel-location page and the drilldown ---------------------------------------------------

export interface ChannelLocationArgs {
  locationId?: string | null;
  search?: string | null;
  /** Channel ids to show (the `channels` query parameter, already split). */
  channels?: string[] | null;
  /** One channel to show (the variant's parameter); adds to `channels`. */
  channelId?: string | null;
  /** Exact SKU, case-insensitive (the variant's parameter). */
  sku?: string | null;
  page?: number | null;
  limit?: number | null;
}

interface ProductRow {
  id: string;
  sku: string;
  name: string;
  categoryName: string | null;
}

/** A product of the page with one of its stock lines at the location (every quantity null when it has no line there now). */
type PageRow = ProductRow & { total: bigint | null; lotId: string | null; expiryDate: Date | null; recalled: boolean | null } & {
  [K in keyof LineQuantities]: number | null;
};

/** The location, with the number of products it holds stock of (its counter, docs/lists.md) when `counted`. */
async function locationOfPage(ctx: RequestContext, locationId: string, counted: boolean) {
  const count = counted
    ? countedRowsSql(Prisma.sql`l."organizationId"`, 'location_products', Prisma.sql`l.id`)
    : Prisma.sql`NULL::bigint`;
  const [location] = await directRows<Location & { counted: bigint | null }>(ctx, Prisma.sql`
    SELECT l.id, l."organizationId", l.code, l.name, l.type, l."createdAt", l."updatedAt", ${count} AS counted
    FROM locations l WHERE l.id = ${locationId} AND l."organizationId" = ${orgId(ctx)}`);
  return location;
}

/**
 * A page of the location's products (those with a stock line there), with channel ATP per product; a connection's
 * window replaces page and limit. Three statements at once, whatever the page holds: the location with its counter,
 * the channels with their policies there, and the page's products each with its stock lines at the location (by the
 * lines' index), where the page used to wait for the location, then read its products, then their stock.
 */
export async function channelLocationAtp(ctx: RequestContext, args: ChannelLocationArgs, window?: ListWindow) {
  if (!args.locationId) throw validationError({ locationId: ['Required'] }, 'locationId is required');
  const locationId = args.locationId;
  const { page, limit, skip, take } = pageWindow(args.page, args.limit, CHANNEL_ATP_PAGE, window);
  const wanted = [...(args.channels ?? []), ...(args.channelId ? [args.channelId] : [])];
  const org = orgId(ctx);
  const search = await productSearch(ctx, args.search);
  const sku = args.sku?.trim();
  const filtered = Boolean(search || sku);
  // The location's products in SKU order are a range of location_products' index (kept by triggers on
  // stock_lines), so a page reads its rows only, whatever the location holds. Unfiltered, the total is the
  // location's counter; filtered, the window count rides on the page query and counts the matches only.
  // A foreign or unknown location matches no row here (organization first), and is answered 404 below.
  const where = Prisma.sql`
    WHERE lp."organizationId" = ${org} AND lp."locationId" = ${locationId}
      ${search ? Prisma.sql`AND ${productSearchSql(search, 'p')}` : Prisma.empty}
      ${sku ? Prisma.sql`AND lower(p.sku) = lower(${sku})` : Prisma.empty}`;
  const from = Prisma.sql`FROM location_products lp JOIN product_masters p ON p.id = lp."productMasterId"`;
  // Unfiltered, the window is taken from the index alone before any product is read, so a deep page skips
  // index entries, not product rows.
  const productsSql = filtered
    ? Prisma.sql`
      SELECT p.id, p.sku, p.name, c.name AS "categoryName", COUNT(*) OVER () AS total, lp.sku AS "orderSku"
      ${from} LEFT JOIN categories c ON c.id = p."categoryId"
      ${where}
      ORDER BY lp.sku, lp."productMasterId" LIMIT ${take} OFFSET ${skip}`
    : Prisma.sql`
      SELECT p.id, p.sku, p.name, c.name AS "categoryName", NULL::bigint AS total, w.sku AS "orderSku"
      FROM (
        SELECT lp."productMasterId", lp.sku FROM location_products lp ${where}
        ORDER BY lp.sku, lp."productMasterId" LIMIT ${take} OFFSET ${skip}
      ) w
      JOIN product_masters p ON p.id = w."productMasterId" LEFT JOIN categories c ON c.id = p."categoryId"`;
  // Each line of the page's products at the location, with its lot's state: one index probe per line, where a lot's
  // lines summed per product in SQL cost a sort and an aggregate per product (a third of the statement's time for a
  // page of 200). The rule adds them up line by line (addToTotals).
  const pageSql = Prisma.sql`
    WITH pg AS (${productsSql})
    SELECT pg.id, pg.sku, pg.name, pg."categoryName", pg.total, s."lotId", l."expiryDate", l.recalled,
           s."qtyOnHand", s."qtyReserved", s."qtyOnHold", s."qtyPicked", s."qtyRecalled", s."qtyExpired"
    FROM pg
    LEFT JOIN stock_lines s ON s."organizationId" = ${org} AND s."locationId" = ${locationId} AND s."productMasterId" = pg.id
    LEFT JOIN lots l ON l.id = s."lotId"
    ORDER BY pg."orderSku", pg.id`;
  const [location, channelList, rows] = await Promise.all([
    locationOfPage(ctx, locationId, !filtered),
    channelRows(ctx, locationId),
    directRows<PageRow>(ctx, pageSql),
  ]);
  if (!location) throw notFound('Location');
  const columns = pickChannels(channelList.map(toColumn), wanted);
  const today = startOfTodayUtc();
  const products: ProductRow[] = [];
  const totals = new Map<string, StockTotals>();
  for (const row of rows) {
    let entry = totals.get(row.id);
    if (!entry) {
      totals.set(row.id, (entry = emptyTotals()));
      products.push({ id: row.id, sku: row.sku, name: row.name, categoryName: row.categoryName });
    }
    if (row.qtyOnHand !== null) {
      addToTotals(entry, row as LotQuantities, today);
    }
  }
  // Only a filtered page past the end or an empty window, which have no rows to carry the count, need their own.
  const total = !filtered
    ? totalOf(location.counted ?? 0)
    : rows.length || (!skip && take)
      ? totalOf(rows[0]?.total ?? 0)
      : await directRows<{ count: bigint }>(ctx, Prisma.sql`SELECT COUNT(*) AS count ${from} ${where}`).then((r) => totalOf(r[0]?.count));
  const { counted: _counted, ...locationRow } = location;
  return {
    products: products.map((p) => productAtp(p, columns, totals.get(p.id)!)),
    channels: columns,
    location: locationRow as Location,
    pagination: { page, pageSize: limit, total, totalPages: Math.ceil(total / limit) },
  };
}

export type ExcludedReason = 'RECALLED' | 'EXPIRED';

/** One product at one location: its channel ATP and every stock line behind it. */
export async function channelLocationDrilldown(
  ctx: RequestContext,
  args: { locationId?: string | null; productMasterId?: string | null; channelId?: string | null },
) {
  const location = await requireLocation(ctx, args.locationId);
  if (!args.productMasterId) throw validationError({ productMasterId: ['Required'] }, 'productMasterId is required');
  const org = orgId(ctx);
  const [product, columns, lines] = await Promise.all([
    ctx.prisma.productMaster.findFirst({
      where: { id: args.productMasterId, organizationId: org },
      select: { id: true, sku: true, name: true, category: { select: { name: true } } },
    }),
    channelColumns(ctx, location.id, args.channelId ? [args.channelId] : []),
    ctx.prisma.stockLine.findMany({
      where: { organizationId: org, locationId: location.id, productMasterId: args.productMasterId },
      include: { lot: { select: { code: true, expiryDate: true, recalled: true } }, bin: { select: { code: true } } },
      orderBy: [{ lineKey: 'asc' }],
    }),
  ]);
  if (!product) throw notFound('Product');
  const today = startOfTodayUtc();
  const totals = emptyTotals();
  const stockLines = lines.map((line) => {
    const quantities: LotQuantities = { ...line, expiryDate: line.lot?.expiryDate ?? null, recalled: line.lot?.recalled ?? null };
    addToTotals(totals, quantities, today);
    const excluded = lineExcluded(lotOf(quantities), {}, today);
    const excludedReason: ExcludedReason | null = !excluded ? null : line.lot?.recalled ? 'RECALLED' : 'EXPIRED';
    return {
      id: line.id,
      lotId: line.lotId,
      lotCode: line.lot?.code ?? null,
      binId: line.binId,
      binCode: line.bin?.code ?? null,
      expiryDate: line.lot?.expiryDate ?? null,
      qtyOnHand: line.qtyOnHand,
      qtyAvailable: excluded ? 0 : availableQty(line),
      qtyReserved: line.qtyReserved,
      qtyOnHold: line.qtyOnHold,
      qtyPicked: line.qtyPicked,
      qtyRecalled: line.qtyRecalled,
      qtyExpired: line.qtyExpired,
      excluded,
      excludedReason,
    };
  });
  const summary = productAtp({ ...product, categoryName: product.category?.name ?? null }, columns, totals);
  return { product: summary, location, channels: summary.channels, channelList: columns, stockLines };
}
