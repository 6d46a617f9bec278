import { directRows } from '../../../db/direct-rows.js';
import type { z } from 'zod';
import type { availabilityCheck as checkSchema } from '../../../contracts/inventory/availability/availability-check.js';
import type { RequestContext } from '../../../context.js';
import { newFieldErrors, notFound, validationError } from '../../../kernel/errors.js';
import { normalizedLocationCode } from '../../../kernel/location-codes.js';
import { orgId } from '../../tenant.js';
import { availableQty, lineExcluded, startOfTodayUtc, type AvailabilityOptions, type LineQuantities } from '../stock-lines/quantities.js';
import { checkFilterIds } from '../../filter-ids.js';
import { Prisma } from '../../../generated/prisma/client.js';

/** A stock line in the availability naming (qty*), with available computed under the given options. */
export interface AvailabilityLine extends LineQuantities {
  id: string;
  productMasterId: string;
  locationId: string;
  lotId: string | null;
  binId: string | null;
  expiryDate: Date | null;
  qtyAvailable: number;
}

export interface AvailabilityTotals {
  totalOnHand: number;
  totalAvailable: number;
  totalReserved: number;
  totalOnHold: number;
  totalPicked: number;
  totalRecalled: number;
  totalExpired: number;
}

export interface AvailabilitySummary extends AvailabilityTotals {
  productMasterId: string | null;
  locationId: string | null;
  /** The lines behind the totals, only when includeStockLines is true. */
  stockLines: AvailabilityLine[] | null;
}

export interface AvailabilityResult {
  type: 'stockLines' | 'summary';
  count: number;
  totals: AvailabilityTotals;
  lines: AvailabilityLine[] | null;
  summary: AvailabilitySummary | null;
}

/** The include flags as callers give them (null or absent means false). */
export interface IncludeFlags {
  includeExpired?: boolean | null;
  includeRecalled?: boolean | null;
  includeOnHold?: boolean | null;
}

export interface AvailabilityArgs extends IncludeFlags {
  locationId?: string | null;
  productMasterId?: string | null;
  /** Deprecated alias of productMasterId. */
  productId?: string | null;
  lotId?: string | null;
  binId?: string | null;
  summary?: boolean | null;
  includeStockLines?: boolean | null;
}

type LineWithLot = LineQuantities & {
  id: string;
  productMasterId: string;
  locationId: string;
  lotId: string | null;
  binId: string | null;
  lot: { expiryDate: Date | null; recalled: boolean } | null;
};

const lineSelect = {
  id: true, productMasterId: true, locationId: true, lotId: true, binId: true,
  qtyOnHand: true, qtyReserved: true, qtyOnHold: true, qtyPicked: true, qtyRecalled: true, qtyExpired: true,
  lot: { select: { expiryDate: true, recalled: true } },
} as const;

const flags = (args: IncludeFlags): AvailabilityOptions => ({
  includeExpired: args.includeExpired ?? false,
  includeRecalled: args.includeRecalled ?? false,
  includeOnHold: args.includeOnHold ?? false,
});

/**
 * A line as availability shows it. A line whose lot expired before today or is recalled has nothing
 * available (unless the matching include flag is set); the availability lists leave such lines out.
 */
export function toAvailabilityLine(line: LineWithLot, options: AvailabilityOptions, today = startOfTodayUtc()): AvailabilityLine {
  const { lot, ...rest } = line;
  const qtyAvailable = lineExcluded(lot, options, today) ? 0 : availableQty(line, options);
  return {
    id: rest.id, productMasterId: rest.productMasterId, locationId: rest.locationId, lotId: rest.lotId, binId: rest.binId,
    expiryDate: lot?.expiryDate ?? null,
    qtyOnHand: rest.qtyOnHand, qtyReserved: rest.qtyReserved, qtyOnHold: rest.qtyOnHold, qtyPicked: rest.qtyPicked,
    qtyRecalled: rest.qtyRecalled, qtyExpired: rest.qtyExpired, qtyAvailable,
  };
}

export function totalsOf(lines: AvailabilityLine[]): AvailabilityTotals {
  const totals: AvailabilityTotals = { totalOnHand: 0, totalAvailable: 0, totalReserved: 0, totalOnHold: 0, totalPicked: 0, totalRecalled: 0, totalExpired: 0 };
  for (const line of lines) {
    totals.totalOnHand += line.qtyOnHand;
    totals.totalAvailable += line.qtyAvailable;
    totals.totalReserved += line.qtyReserved;
    totals.totalOnHold += line.qtyOnHold;
    totals.totalPicked += line.qtyPicked;
    totals.totalRecalled += line.qtyRecalled;
    totals.totalExpired += line.qtyExpired;
  }
  return totals;
}

function productOf(args: AvailabilityArgs): string | null {
  const { productMasterId, productId } = args;
  if (productMasterId != null && productId != null && productMasterId !== productId) {
    throw validationError({ productId: ['Deprecated alias of productMasterId; it must match productMasterId when both are given'] });
  }
  return productMasterId ?? productId ?? null;
}

/**
 * Availability to promise over the lines matching the filters. Lines of expired or recalled lots are
 * left out unless includeExpired / includeRecalled; on-hold units count as available only with
 * includeOnHold. At least one filter is required so the answer stays bounded.
 */
export async function getAvailability(ctx: RequestContext, args: AvailabilityArgs): Promise<AvailabilityResult> {
  const productMasterId = productOf(args);
  const filter = { productMasterId, locationId: args.locationId, lotId: args.lotId, binId: args.binId };
  if (productMasterId == null && args.locationId == null && args.lotId == null && args.binId == null) {
    throw validationError(
      { productMasterId: ['Give productMasterId, locationId, lotId or binId'], locationId: ['Give productMasterId, locationId, lotId or binId'] },
      'productMasterId or locationId is required',
    );
  }
  await checkFilterIds(ctx, filter);
  const options = flags(args);
  const today = startOfTodayUtc();
  const lines: AvailabilityLine[] = [];
  for (const row of await availabilityRows(ctx, filter)) {
    const lot = row.recalled === null ? null : { expiryDate: asDate(row.expiryDate), recalled: row.recalled };
    if (!lineExcluded(lot, options, today)) lines.push(toAvailabilityLine({ ...row, lot }, options, today));
  }
  const totals = totalsOf(lines);
  if (!args.summary) return { type: 'stockLines', count: lines.length, totals, lines, summary: null };
  return {
    type: 'summary',
    count: lines.length,
    totals,
    lines: null,
    summary: { productMasterId, locationId: args.locationId ?? null, ...totals, stockLines: args.includeStockLines ? lines : null },
  };
}

type AvailabilityRow = LineQuantities & {
  id: string;
  productMasterId: string;
  locationId: string;
  lotId: string | null;
  binId: string | null;
  expiryDate: Date | string | null;
  recalled: boolean | null;
};

// Raw queries may hand a DATE back as text; a date-only string parses as UTC midnight, like the rule's today.
const asDate = (value: Date | string | null) => (value === null || value instanceof Date ? value : new Date(value));

/**
 * The matching lines with their lot's expiry and recall, flat and in id order. A location can hold tens of
 * thousands of lines: one flat query keeps the request thread's share small (the ORM's nested lot
 * relation cost more than the rest of the request at 10,000 lines).
 */
function availabilityRows(ctx: RequestContext, filter: { productMasterId: string | null; locationId?: string | null; lotId?: string | null; binId?: string | null }) {
  const and = (column: string, value: string | null | undefined) => (value == null ? Prisma.empty : Prisma.sql`AND s.${Prisma.raw(`"${column}"`)} = ${value}`);
  return directRows<AvailabilityRow>(ctx, Prisma.sql`
    SELECT s.id, s."productMasterId", s."locationId", s."lotId", s."binId",
           s."qtyOnHand", s."qtyReserved", s."qtyOnHold", s."qtyPicked", s."qtyRecalled", s."qtyExpired",
           l."expiryDate", l.recalled
    FROM stock_lines s LEFT JOIN lots l ON l.id = s."lotId"
    WHERE s."organizationId" = ${orgId(ctx)} ${and('locationId', filter.locationId)} ${and('productMasterId', filter.productMasterId)}
      ${and('lotId', filter.lotId)} ${and('binId', filter.binId)}
    ORDER BY s.id`);
}

/** One stock line in the availability naming (available is 0 when its lot is expired or recalled, unless included). */
export async function getAvailabilityLine(ctx: RequestContext, id: string, options: IncludeFlags = {}): Promise<AvailabilityLine> {
  const line = await ctx.prisma.stockLine.findFirst({ where: { id, organizationId: orgId(ctx) }, select: lineSelect });
  if (!line) throw notFound('Inventory item');
  return toAvailabilityLine(line, flags(options));
}

/** The input as its contract outputs it (parsed once, where it comes in). */
export type AvailabilityCheckInput = z.output<typeof checkSchema>;

export interface AvailabilityCheckResult {
  sku: string;
  locationId: string;
  requestedQuantity: number;
  availableQuantity: number;
  isAvailable: boolean;
}

type CheckRow = Partial<LineQuantities> & {
  sku: string;
  locationKey: string;
  locationId: string | null;
  expiryDate: Date | string | null;
  recalled: boolean | null;
};

/**
 * Can each (SKU, location) supply the requested quantity? An item names its location by id, by code
 * (`DC-EAST`) or by the normalized form `<organizationId>-<locationId>`, as import rows do (an id wins,
 * then a code). The whole batch resolves its locations and reads its stock lines in one query, whatever
 * its size, and the rule of quantities.ts sums them. A location that is not the organization's refuses
 * the batch (400 naming `items.N.locationId`), since 0 available would read as "out of stock"; an
 * unknown SKU has 0 available. Items are checked independently: two items for the same SKU and
 * location are each compared with the same stock.
 */
export async function checkAvailability(ctx: RequestContext, { items }: AvailabilityCheckInput): Promise<AvailabilityCheckResult[]> {
  const pairs = [...new Map(items.map((item) => [`${item.sku}\u0000${item.locationId}`, item])).values()];
  const organizationId = orgId(ctx);
  const prefix = normalizedLocationCode(organizationId, '');
  const skus = pairs.map((p) => p.sku);
  // The SKUs are resolved first, through the (organizationId, sku) index: joined directly, the planner
  // scans every product of the organization instead. Each distinct location reference is resolved once,
  // and a pair without stock (or with an unknown SKU) still gives one row, so an unknown location shows.
  const rows = await directRows<CheckRow>(ctx, Prisma.sql`
    WITH r AS MATERIALIZED (SELECT * FROM unnest(${skus}::text[], ${pairs.map((p) => p.locationId)}::text[]) AS r(sku, "locationKey")),
         k AS MATERIALIZED (
           SELECT refs.ref AS "locationKey",
                  (SELECT loc.id FROM locations loc
                   WHERE loc."organizationId" = ${organizationId}
                     AND (loc.id = refs.ref OR loc.code = refs.ref
                          OR (left(refs.ref, ${prefix.length}::int) = ${prefix} AND loc.id = substr(refs.ref, ${prefix.length + 1}::int)))
                   ORDER BY loc.id = refs.ref DESC, loc.code = refs.ref DESC
                   LIMIT 1) AS "locationId"
           FROM (SELECT DISTINCT "locationKey" AS ref FROM r) refs),
         p AS MATERIALIZED (SELECT id, sku FROM product_masters WHERE "organizationId" = ${organizationId} AND sku = ANY(${skus}::text[]))
    SELECT r.sku, r."locationKey", k."locationId", s."qtyOnHand", s."qtyReserved", s."qtyOnHold", s."qtyPicked", s."qtyRecalled", s."qtyExpired",
           l."expiryDate", l.recalled
    FROM r JOIN k ON k."locationKey" = r."locationKey"
    LEFT JOIN p ON p.sku = r.sku
    LEFT JOIN stock_lines s ON s."organizationId" = ${organizationId} AND s."productMasterId" = p.id AND s."locationId" = k."locationId"
    LEFT JOIN lots l ON l.id = s."lotId"`);
  const unknownLocations = new Set(rows.filter((row) => row.locationId === null).map((row) => row.locationKey));
  if (unknownLocations.size) {
    const details = newFieldErrors();
    items.forEach((item, index) => {
      if (unknownLocations.has(item.locationId)) details[`items.${index}.locationId`] = ['Unknown location: give the id or the code of a location of your organization'];
    });
    throw validationError(details, 'Unknown location');
  }
  const today = startOfTodayUtc();
  const available = new Map<string, number>();
  for (const row of rows) {
    if (row.qtyOnHand === null || row.qtyOnHand === undefined) continue;
    // Raw queries may hand a DATE back as text; a date-only string parses as UTC midnight, like the rule's today.
    const lot = row.recalled === null ? null : { expiryDate: row.expiryDate === null ? null : new Date(row.expiryDate), recalled: row.recalled };
    if (lineExcluded(lot, {}, today)) continue;
    const key = `${row.sku}\u0000${row.locationKey}`;
    available.set(key, (available.get(key) ?? 0) + availableQty(row as LineQuantities));
  }
  return items.map((item) => {
    const availableQuantity = available.get(`${item.sku}\u0000${item.locationId}`) ?? 0;
    return { sku: item.sku, locationId: item.locationId, requestedQuantity: item.quantity, availableQuantity, isAvailable: availableQuantity >= item.quantity };
  });
}
