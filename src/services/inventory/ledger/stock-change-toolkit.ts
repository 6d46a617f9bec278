import type { RequestContext } from '../../../context.js';
import { DomainError, validationError } from '../../../kernel/errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { ReasonCode, StockLine } from '../../../generated/prisma/client.js';
import { authOf, orgId } from '../../tenant.js';
import { availableQty, lineExcluded, partsOf } from './quantities.js';
import type { Tx } from './stock-ledger.js';

/** Largest quantity a stock line column holds (PostgreSQL integer). */
export const MAX_QTY = 2_147_483_647;

/**
 * A stock line or lot named in an adjustment's body that is not the organization's: a field of the body
 * being validated, so 400 with its name (an id in the path or a filter is 404).
 */
export const unknownInBody = (field: string, what: string) => validationError({ [field]: [`${what} not found`] }, `${what} not found`);

/** A stock line with its lot and bin codes: what adjustment and receiving responses show. */
export interface LineState extends StockLine {
  lotCode: string | null;
  expiryDate: Date | string | null;
  binCode: string | null;
  lotRecalled: boolean | null;
}

/**
 * Interactive transaction limits of one adjustment: requests on a hot line queue on its row lock, so
 * they may wait longer for a connection than Prisma's 2 s default under load.
 */
export const TRANSACTION = { maxWait: 10_000, timeout: 15_000 };

/**
 * Locks the organization's stock lines with these ids (SELECT ... FOR UPDATE) and returns them with
 * their lot and bin codes. Lines are locked in id order so that two requests locking the same lines
 * cannot deadlock. While the transaction lasts nobody else can change them, so a quantity computed
 * from what this returns (an absolute count, for example) is applied to exactly the value it was computed from.
 */
export async function lockLines(ctx: RequestContext, tx: Tx, ids: string[]): Promise<Map<string, LineState>> {
  if (!ids.length) return new Map();
  const rows = await tx.$queryRaw<LineState[]>`
    SELECT sl.*, l.code AS "lotCode", l."expiryDate" AS "expiryDate", l.recalled AS "lotRecalled", b.code AS "binCode"
    FROM stock_lines sl
    LEFT JOIN lots l ON l.id = sl."lotId"
    LEFT JOIN bins b ON b.id = sl."binId"
    WHERE sl.id IN (${Prisma.join([...new Set(ids)].sort())}) AND sl."organizationId" = ${orgId(ctx)}
    ORDER BY sl.id
    FOR UPDATE OF sl`;
  return new Map(rows.map((row) => [row.id, row]));
}

/** Refuses a new on-hand quantity below zero, below the line's parts, or too large to store. */
export function checkOnHandFloor(line: StockLine, newQty: number, field: string) {
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

/**
 * An active reason code of the organization, given by id or by code (for example DAMAGED, any case).
 * Without a value the `fallback` code is used; without either the field is required.
 */
export async function findReasonCode(ctx: RequestContext, db: Tx, value: string | null | undefined, field: string, fallback?: string): Promise<ReasonCode> {
  const wanted = value?.trim() || fallback;
  if (!wanted) throw validationError({ [field]: ['Required'] });
  const reason = await db.reasonCode.findFirst({
    where: { organizationId: orgId(ctx), active: true, OR: [{ id: wanted }, { code: { equals: wanted, mode: 'insensitive' } }] },
  });
  if (!reason) throw validationError({ [field]: [`Unknown or inactive reason code: ${wanted}`] });
  return reason;
}

/** A DECREASE-only reason cannot explain an increase, nor an INCREASE-only reason a decrease. */
export function reasonDirectionProblem(reason: ReasonCode, delta: number): string | null {
  if (reason.direction === 'DECREASE' && delta > 0) return `Reason ${reason.code} is for decreases only; this change adds ${delta}`;
  if (reason.direction === 'INCREASE' && delta < 0) return `Reason ${reason.code} is for increases only; this change removes ${-delta}`;
  return null;
}

export function checkReasonDirection(reason: ReasonCode, delta: number, field: string) {
  const problem = reasonDirectionProblem(reason, delta);
  if (problem) throw validationError({ [field]: [problem] });
}

export const isHealthcare = (ctx: RequestContext) => authOf(ctx).organization.industry?.toUpperCase() === 'HEALTHCARE';

/**
 * Healthcare organizations must say why on hand dropped by at least their largeAdjustmentThreshold
 * units. Returns that threshold (null when the rule does not apply to the organization).
 */
export async function rootCauseThreshold(ctx: RequestContext, db: Tx): Promise<number | null> {
  if (!isHealthcare(ctx)) return null;
  const org = await db.organization.findUniqueOrThrow({ where: { id: orgId(ctx) }, select: { largeAdjustmentThreshold: true } });
  return org.largeAdjustmentThreshold;
}

export function rootCauseProblem(threshold: number | null, delta: number, rootCause: string | null | undefined): string | null {
  if (threshold === null || delta >= 0 || -delta < threshold || rootCause?.trim()) return null;
  return `Required in healthcare organizations when on hand drops by ${threshold} units or more (this change removes ${-delta})`;
}

export const signed = (delta: number) => (delta > 0 ? `+${delta}` : String(delta));

/** Plain ISO date (YYYY-MM-DD) to the Date stored in a DATE column. */
export const dateOnly = (text: string) => new Date(`${text}T00:00:00.000Z`);

export const isoDay = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

/** Units of a locked line that may be promised or moved: none when its lot is recalled or expired. */
export function usableQty(line: LineState): number {
  const lot = line.lotId ? { expiryDate: line.expiryDate ? dateOnly(isoDay(line.expiryDate)!) : null, recalled: Boolean(line.lotRecalled) } : null;
  return lineExcluded(lot, {}) ? 0 : availableQty(line);
}

/** Turns PostgreSQL's "integer out of range" (a sum past MAX_QTY) into a 400 on `field`. */
export function outOfRange(field: string) {
  return (error: unknown): never => {
    const text = error instanceof Error ? error.message : String(error);
    if (/out of range/i.test(text)) throw validationError({ [field]: [`On hand may not exceed ${MAX_QTY}`] });
    throw error;
  };
}
