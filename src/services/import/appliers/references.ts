import { z } from 'zod';
import { YEAR_RANGE_MESSAGE, yearInRange } from '../../../kernel/input-limits.js';
import type { RequestContext } from '../../../context.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { normalizeSku } from '../../../contracts/products/sku-rules.js';
import { orgId } from '../../tenant.js';
import type { ImportRow, RowRejection } from '../kinds.js';

type Tx = Prisma.TransactionClient;

/** The normalized form of a location code: organization id and location id joined by a hyphen. */
export const normalizedLocationCode = (organizationId: string, locationId: string) => `${organizationId}-${locationId}`;

/**
 * Resolves location references of import rows, each either a location's code (`DC-EAST`) or its
 * normalized form `<organizationId>-<locationId>`, to location ids of the caller's organization, with one
 * query. A reference the map lacks is unknown: another organization's codes and ids never resolve.
 * A code wins over the normalized form when both would match.
 */
export async function resolveLocations(tx: Tx, ctx: RequestContext, refs: Iterable<string>): Promise<Map<string, string>> {
  const organizationId = orgId(ctx);
  const codes = [...new Set(refs)];
  if (!codes.length) return new Map();
  const prefix = normalizedLocationCode(organizationId, '');
  const ids = codes.filter((ref) => ref.startsWith(prefix) && ref.length > prefix.length).map((ref) => ref.slice(prefix.length));
  const found = await tx.location.findMany({
    where: { organizationId, OR: [{ code: { in: codes } }, ...(ids.length ? [{ id: { in: ids } }] : [])] },
    select: { id: true, code: true },
  });
  const byCode = new Map(found.map((l) => [l.code, l.id]));
  const byId = new Set(found.map((l) => l.id));
  const map = new Map<string, string>();
  for (const ref of codes) {
    const id = byCode.get(ref) ?? (ref.startsWith(prefix) && byId.has(ref.slice(prefix.length)) ? ref.slice(prefix.length) : undefined);
    if (id) map.set(ref, id);
  }
  return map;
}

/**
 * Resolves SKUs to product ids of the caller's organization, with one query, keyed by the text given. A
 * SKU matches exactly (case-sensitive) once normalized as products store it (Unicode NFC).
 */
export async function resolveSkus(tx: Tx, ctx: RequestContext, skus: Iterable<string>): Promise<Map<string, string>> {
  const list = [...new Set(skus)];
  if (!list.length) return new Map();
  const normalized = [...new Set(list.map(normalizeSku))];
  const found = await tx.productMaster.findMany({ where: { organizationId: orgId(ctx), sku: { in: normalized } }, select: { id: true, sku: true } });
  const ids = new Map(found.map((p) => [p.sku, p.id]));
  return new Map(list.flatMap((sku) => (ids.has(normalizeSku(sku)) ? [[sku, ids.get(normalizeSku(sku))!] as const] : [])));
}

/**
 * Parses each row with a zod schema: the valid rows with their parsed data, and one rejection per
 * problem of each invalid row (field = the path in the row, array indexes from 0, e.g. `lines.2.sku`;
 * `_` for the row as a whole).
 */
export function parseRows<S extends z.ZodType>(schema: S, rows: ImportRow[]): { valid: { rowNumber: number; data: z.output<S> }[]; rejections: RowRejection[] } {
  const valid: { rowNumber: number; data: z.output<S> }[] = [];
  const rejections: RowRejection[] = [];
  for (const row of rows) {
    const result = schema.safeParse(row.data);
    if (result.success) valid.push({ rowNumber: row.rowNumber, data: result.data });
    else for (const issue of result.error.issues) rejections.push({ rowNumber: row.rowNumber, field: issue.path.join('.') || '_', message: issue.message });
  }
  return { valid, rejections };
}

/** Keeps the last row of each key (rows later in the request win), in request order. */
export function lastPerKey<T>(rows: T[], keyOf: (row: T) => string): T[] {
  const last = new Map<string, T>();
  for (const row of rows) {
    const key = keyOf(row);
    last.delete(key);
    last.set(key, row);
  }
  return [...last.values()];
}

// CSV loaders send every value as text: an empty cell or null is an absent value, and numbers may come
// as numeric text (SKUs and codes may come as numbers).
const blank = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);
// A number too large for a double (1e309) reaches a row as Infinity: it is neither a number nor a text here.
const asText = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : blank(value));
const asNumber = (value: unknown) => {
  const v = blank(value);
  return typeof v === 'string' && Number.isFinite(Number(v)) ? Number(v) : v;
};
const numberError = (issue: { input?: unknown }) =>
  issue.input === undefined ? 'Required' : typeof issue.input === 'number' ? 'Must be a finite number' : 'Must be a number';

const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Required' : typeof issue.input === 'number' ? 'Must be a string (a finite number is taken as its text)' : 'Must be a string') })
    .trim()
    .max(max, `At most ${max} characters`)
    // PostgreSQL text cannot hold it: caught here, it rejects the row instead of failing the chunk.
    .refine((value) => !value.includes('\u0000'), 'Must not contain the NUL character');

/** A required, trimmed, non-empty string of at most `max` characters ("Required" when absent). */
export const requiredText = (max: number) => z.preprocess(asText, text(max));

/** An optional trimmed string of at most `max` characters; empty or null is absent. */
export const optionalText = (max: number) => z.preprocess(asText, text(max).optional());

/** A number (numeric text accepted) within the bounds; `integer` demands a whole number. */
export const numberField = ({ min, max, integer = false, positive = false }: { min: number; max: number; integer?: boolean; positive?: boolean }) => {
  let schema = z.number({ error: numberError });
  if (integer) schema = schema.int('Must be a whole number');
  schema = positive ? schema.positive('Must be greater than 0') : schema.min(min, `Must be ${min} or more`);
  return z.preprocess(asNumber, schema.max(max, `At most ${max}`));
};

/** The same, absent when empty or null. */
export const optionalNumber = (bounds: Parameters<typeof numberField>[0]) => z.preprocess(asNumber, (numberField(bounds) as z.ZodType<number>).optional());

const dateText = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be an ISO date (YYYY-MM-DD)') })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(?:[T ].*)?$/, 'Must be an ISO date (YYYY-MM-DD)')
  .transform((value, ctx) => {
    const day = value.slice(0, 10);
    const date = new Date(`${day}T00:00:00.000Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
      ctx.addIssue({ code: 'custom', message: 'Not a valid calendar date' });
      return z.NEVER;
    }
    // Year 0000 does not exist for PostgreSQL, and Date.UTC reads years 0-99 as 1900-1999: no supply
    // chain date is that old, so the range is bounded rather than each case handled.
    if (!yearInRange(date)) {
      ctx.addIssue({ code: 'custom', message: YEAR_RANGE_MESSAGE });
      return z.NEVER;
    }
    return date;
  });

/**
 * An ISO calendar date `YYYY-MM-DD` from the year 1900 on (a date-time is accepted and its date part, as
 * written, is used), parsed to midnight UTC of that date.
 */
export const isoDate = z.preprocess(blank, dateText);

/** The same, absent when empty or null. */
export const optionalIsoDate = z.preprocess(blank, dateText.optional());
