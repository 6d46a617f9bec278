/**
 * A field of a raw row as loose text (trimmed, lower case; '' when absent), for telling when the rows of
 * one job may write the same record (ROW_KEYS): read before any row is parsed, so it must be cheap, and
 * it may take two rows for one record when they are not (never the other way round).
 */
export function looseText(row: unknown, field: string): string {
  const value = row && typeof row === 'object' ? (row as Record<string, unknown>)[field] : undefined;
  return value === undefined || value === null ? '' : String(value).trim().toLowerCase();
}
