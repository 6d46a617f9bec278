import { DomainError, validationError } from '../../../kernel/errors.js';
import { dateOnly, isoDay } from '../../../kernel/iso-dates.js';

// The one rule for stock quantities. On hand counts everything physically at the line; reserved, on
// hold, picked, recalled and expired are parts of it (the database CHECK keeps each part >= 0 and
// their sum <= on hand). Available is on hand minus the parts, so it is never below zero.

/** Largest quantity a stock line column holds (PostgreSQL integer). */
export const MAX_QTY = 2_147_483_647;

export const BUCKETS = ['ON_HAND', 'RESERVED', 'ON_HOLD', 'PICKED', 'RECALLED', 'EXPIRED'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** Column of each bucket on stock_lines. */
export const BUCKET_COLUMN = {
  ON_HAND: 'qtyOnHand',
  RESERVED: 'qtyReserved',
  ON_HOLD: 'qtyOnHold',
  PICKED: 'qtyPicked',
  RECALLED: 'qtyRecalled',
  EXPIRED: 'qtyExpired',
} as const satisfies Record<Bucket, string>;

export interface LineQuantities {
  qtyOnHand: number;
  qtyReserved: number;
  qtyOnHold: number;
  qtyPicked: number;
  qtyRecalled: number;
  qtyExpired: number;
}

export interface AvailabilityOptions {
  /** Count on-hold units as available. */
  includeOnHold?: boolean;
  /** Count recalled units as available. */
  includeRecalled?: boolean;
  /** Count expired units as available. */
  includeExpired?: boolean;
}

/** The buckets that are parts of on hand: each at least 0, their sum at most on hand. */
export const PARTS = BUCKETS.filter((bucket): bucket is Exclude<Bucket, 'ON_HAND'> => bucket !== 'ON_HAND');
export type Part = (typeof PARTS)[number];

/** The parts of on hand summed: units spoken for or unusable (those `leftOut` gives true for not counted). */
export function partsOf(line: LineQuantities, leftOut: (part: Part) => boolean = () => false): number {
  let sum = 0;
  for (const part of PARTS) if (!leftOut(part)) sum += line[BUCKET_COLUMN[part]];
  return sum;
}

/** Units that can be promised: on hand minus every part that is spoken for or unusable. */
export function availableQty(line: LineQuantities, options: AvailabilityOptions = {}): number {
  const countedAsAvailable = (part: Part) =>
    (part === 'ON_HOLD' && options.includeOnHold) || (part === 'RECALLED' && options.includeRecalled) || (part === 'EXPIRED' && options.includeExpired);
  return Math.max(0, line.qtyOnHand - partsOf(line, (part) => Boolean(countedAsAvailable(part))));
}

/** Is the whole line unusable because its lot expired before `today` or was recalled? */
export function lineExcluded(
  lot: { expiryDate: Date | null; recalled: boolean } | null | undefined,
  options: AvailabilityOptions,
  today: Date = startOfTodayUtc(),
): boolean {
  if (!lot) return false;
  if (lot.recalled && !options.includeRecalled) return true;
  return !options.includeExpired && expiredBefore(lot.expiryDate, today);
}

/** Has a lot with this expiry date expired by `today` (the day after its expiry date)? */
export const expiredBefore = (expiryDate: Date | string | null, today: Date = startOfTodayUtc()) => expiryDate !== null && new Date(expiryDate) < today;

export function startOfTodayUtc(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Units of a locked line that may be promised or moved: none when its lot is recalled or expired. */
export function usableQty(line: LineQuantities & { lotId: string | null; expiryDate: Date | string | null; lotRecalled: boolean | null }): number {
  const lot = line.lotId ? { expiryDate: line.expiryDate ? dateOnly(isoDay(line.expiryDate)!) : null, recalled: Boolean(line.lotRecalled) } : null;
  return lineExcluded(lot, {}) ? 0 : availableQty(line);
}

/** Refuses a new on-hand quantity below zero, below the line's parts, or too large to store. */
export function checkOnHandFloor(line: LineQuantities, newQty: number, field: string) {
  if (newQty > MAX_QTY) throw validationError({ [field]: [`On hand may not exceed ${MAX_QTY}`] });
  // On hand may not drop below its parts: the units spoken for or unusable.
  const floor = partsOf(line);
  if (newQty < floor || newQty < 0) {
    const message = floor
      ? `On hand cannot go below ${floor}: that many units are reserved, on hold, picked, recalled or expired`
      : 'On hand cannot go below 0';
    throw new DomainError('INSUFFICIENT_STOCK', message, { details: { [field]: [message] } });
  }
}

/** Turns PostgreSQL's "integer out of range" (a sum past MAX_QTY) into a 400 on `field`. */
export function outOfRange(field: string) {
  return (error: unknown): never => {
    const text = error instanceof Error ? error.message : String(error);
    if (/out of range/i.test(text)) throw validationError({ [field]: [`On hand may not exceed ${MAX_QTY}`] });
    throw error;
  };
}
