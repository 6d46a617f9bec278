/**
 * Ranges every input is held to, wherever it comes in (GraphQL scalars, REST, imports, the admin CLI),
 * so that a value the database cannot store is refused as the caller's mistake, never a 500.
 */

/** Largest magnitude of a decimal column numeric(14, 4) (unit costs): 10 digits before the point, 4 after. */
export const MAX_DECIMAL = 9_999_999_999.9999;

/** Largest whole quantity (PostgreSQL int4). */
export const MAX_INT = 2_147_483_647;

/** Dates and date-times are accepted from the year MIN_YEAR through MAX_YEAR (UTC). */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;

export const YEAR_RANGE_MESSAGE = `The year must be from ${MIN_YEAR} to ${MAX_YEAR}`;
export const DECIMAL_RANGE_MESSAGE = `Must be a number from -${MAX_DECIMAL} to ${MAX_DECIMAL}`;

/** Whether a decimal fits numeric(14, 4) once rounded to 4 places. */
export const decimalInRange = (value: number) => Number.isFinite(value) && Math.abs(value) <= MAX_DECIMAL;

/** Whether a date (or date-time) is a real time within the accepted years. */
export function yearInRange(date: Date): boolean {
  const time = date.getTime();
  if (Number.isNaN(time)) return false;
  const year = date.getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

/** An ISO calendar date `YYYY-MM-DD` that exists (no February 30th): its midnight UTC, or null. */
export function calendarDate(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const date = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text ? date : null;
}

/**
 * A date-time text as a Date, or null. `new Date` rolls a day that does not exist over into the next
 * month (2025-02-30 becomes March 2nd), so the calendar date it starts with must exist as written.
 */
export function dateTimeOf(text: string): Date | null {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return null;
  const day = /^(\d{4}-\d{2}-\d{2})(?![\d-])/.exec(text.trim())?.[1];
  return day === undefined || calendarDate(day) ? date : null;
}
