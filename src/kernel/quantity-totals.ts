/**
 * Totals of units: sums over stock lines, transfer lines, locations. Each single quantity is an int4
 * (MAX_INT), but their sums are not: two lots of 2,147,483,647 at one location already pass it. Totals
 * are summed in SQL as bigint and carried as JS numbers, which are exact up to MAX_TOTAL; every input
 * bound keeps a total far below it (500 transfer lines × MAX_INT is about 1.1 × 10^12).
 */

/** Largest total a response carries exactly (2^53 − 1): a JSON number every client reads without loss. */
export const MAX_TOTAL = Number.MAX_SAFE_INTEGER;

export const TOTAL_RANGE_MESSAGE = `A total of units must be a whole number from -${MAX_TOTAL} to ${MAX_TOTAL}`;

/** Whether a number is a whole total that can be carried exactly. */
export const totalInRange = (value: number) => Number.isSafeInteger(value);

/**
 * A total as read from SQL (SUM(...)::bigint comes back as a BigInt, a numeric as a string, NULL when no
 * row was summed) as a number: the one place such values are converted. Beyond MAX_TOTAL it throws
 * rather than answer a rounded figure.
 */
export function totalOf(value: bigint | number | string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  const total = Number(value);
  if (!totalInRange(total)) throw new RangeError(`${TOTAL_RANGE_MESSAGE} (got ${String(value)})`);
  return total;
}

/** Σ of `pick` over `items`, as a total (exact: every part is a whole number). */
export function sumOf<T>(items: readonly T[], pick: (item: T) => number): number {
  let sum = 0;
  for (const item of items) sum += pick(item);
  return sum;
}
