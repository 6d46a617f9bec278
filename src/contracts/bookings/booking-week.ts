import { z } from 'zod';
import { calendarDate, MAX_YEAR, MIN_YEAR } from '../../kernel/input-limits.js';
import { mustBe } from '../parse.js';

export const WEEK_MESSAGE = 'Must be the Monday of an ISO week (YYYY-MM-DD) or an ISO week (YYYY-Www, for example 2026-W50)';

const DAY_MS = 86_400_000;

/** Monday (UTC) of ISO week `week` of `year`: the week holding January 4th is week 1. */
function mondayOfIsoWeek(year: number, week: number): Date {
  const jan4 = Date.UTC(year, 0, 4);
  const week1 = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(week1 + (week - 1) * 7 * DAY_MS);
}

/** Weeks in an ISO year: 53 when December 28th falls in week 53. */
const weeksIn = (year: number) => (mondayOfIsoWeek(year + 1, 1).getTime() - mondayOfIsoWeek(year, 1).getTime()) / (7 * DAY_MS);

/** The Monday (YYYY-MM-DD) a week text names, or null: a Monday as a date, or YYYY-Www. */
export function weekMonday(text: string): string | null {
  const iso = /^(\d{4})-W(\d{2})$/i.exec(text);
  if (iso) {
    const year = Number(iso[1]);
    const week = Number(iso[2]);
    if (year < MIN_YEAR || year > MAX_YEAR || week < 1 || week > weeksIn(year)) return null;
    return mondayOfIsoWeek(year, week).toISOString().slice(0, 10);
  }
  const date = calendarDate(text);
  if (!date || date.getUTCDay() !== 1) return null;
  const year = date.getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR ? text : null;
}

/** A booking week in a body or query: text, answered as its Monday (YYYY-MM-DD). */
export const bookingWeek = z
  .string({ error: mustBe('text') })
  .trim()
  .max(10, WEEK_MESSAGE)
  .refine((value) => weekMonday(value) !== null, WEEK_MESSAGE)
  .transform((value) => weekMonday(value)!);
