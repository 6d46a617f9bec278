/**
 * Ranges every input is held to, wherever it comes in (GraphQL scalars, REST, imports, the admin CLI),
 * so that a value the database cannot store is refused as the caller's mistake, never a 500.
 */

/** Largest magnitude of a decimal column numeric(14, 4) (unit costs): 10 digits before the point, 4 after. */
export const MAX_DECIMAL = 9_999_999_999.9999;

/** Largest whole quantity (PostgreSQL int4). */
export const MAX_INT = 2_147_483_647;

/**
 * Dates and date-times are accepted from the year MIN_YEAR through MAX_YEAR (UTC): a plausible range for
 * supply-chain data, so that no weekly series, window or loop can grow from two extreme dates.
 */
export const MIN_YEAR = 1970;
export const MAX_YEAR = 2200;

const DAY_MS = 86_400_000;

/** Longest an external event may last, endsAt - startsAt (about 3 years). */
export const MAX_EVENT_SPAN_DAYS = 1096;

/** Longest number of days a planning setting may look ahead (lead times, replenishment and forecast periods): 10 years. */
export const MAX_PLANNING_DAYS = 3650;

/** Longest window a query's two dates (from and to, or their equivalents) may span (about 10 years). */
export const MAX_WINDOW_DAYS = 3660;

export const YEAR_RANGE_MESSAGE = `The year must be from ${MIN_YEAR} to ${MAX_YEAR}`;
export const DATE_TIME_MESSAGE = 'Must be an ISO 8601 date-time with a time zone (YYYY-MM-DDTHH:MM[:SS[.fraction]] then Z or ±HH:MM), for example 2030-01-31T00:00:00Z';
export const DATE_MESSAGE = 'Must be an ISO 8601 date (YYYY-MM-DD)';
export const DATE_OR_DATE_TIME_MESSAGE = 'Must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone (YYYY-MM-DDTHH:MM[:SS[.fraction]] then Z or ±HH:MM)';
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

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * The one date-time rule: `YYYY-MM-DDTHH:MM[:SS[.fraction]]` then `Z` or `±HH:MM`, as a Date, or null.
 * The day must exist as written and hours run 00-23: `new Date` would roll 2025-02-30 or T24:00 over into
 * the next day, read a value without a zone in the server's time zone and take a bare date as midnight UTC.
 */
export function dateTimeOf(text: string): Date | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, day = '', hours = '', minutes = '', seconds = '0', fraction = '', sign, zoneHours = '0', zoneMinutes = '0'] = match;
  const midnight = calendarDate(day);
  if (!midnight || +hours > 23 || +minutes > 59 || +seconds > 59 || +zoneHours > 23 || +zoneMinutes > 59) return null;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (+zoneHours * 60 + +zoneMinutes);
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  return new Date(midnight.getTime() + ((+hours * 60 + +minutes - offsetMinutes) * 60 + +seconds) * 1000 + millis);
}

/**
 * For the parameters documented as "a date or a date-time": a calendar date (its midnight UTC) or a
 * date-time under the rule above, or null.
 */
export function dateOrDateTimeOf(text: string): Date | null {
  return calendarDate(text) ?? dateTimeOf(text);
}

/**
 * The one span rule: `end` at most `days` days after `start`; the refusal to name on the later field, or null
 * (an end before its start is each caller's own message).
 */
export function spanRefusal(start: Date | null | undefined, end: Date | null | undefined, days: number, startField: string): string | null {
  if (!start || !end || end.getTime() - start.getTime() <= days * DAY_MS) return null;
  return `Must be at most ${days} days after ${startField}`;
}
