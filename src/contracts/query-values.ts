import { z } from 'zod';
import { MAX_INT } from '../kernel/input-limits.js';

/**
 * Values of a query string (or a path) arrive as text. These accept the text form and the typed one
 * (a GraphQL Int or Boolean), so a list query has one contract for both doors.
 */
const firstOf = (value: unknown) => (Array.isArray(value) ? value[0] : value);
const blankIsAbsent = (value: unknown) => (value === '' || value === null ? undefined : value);

const toNumber = (raw: unknown) => {
  const value = blankIsAbsent(firstOf(raw));
  return typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
};

function wholeNumberSchema(message: string, range: { min?: number; max?: number }) {
  let number = z.number({ error: message }).int(message);
  if (range.min !== undefined) number = number.min(range.min, message);
  // Without a stated maximum, the most a GraphQL Int (and the database's int4) holds.
  return range.max !== undefined ? number.max(range.max, message) : number.max(MAX_INT, `At most ${MAX_INT}`);
}

/** A whole number, from "20" or 20; absent (or null, or empty) stays absent. */
export const wholeNumber = (message: string, range: { min?: number; max?: number } = {}) =>
  z.preprocess(toNumber, wholeNumberSchema(message, range).optional());

/** A whole number, from "20" or 20, or `fallback` when absent. */
export const wholeNumberOr = (fallback: number, message: string, range: { min?: number; max?: number } = {}) =>
  z.preprocess(toNumber, wholeNumberSchema(message, range).default(fallback));

/** true/false (also 1/0, any case), from text or a boolean. */
export const flag = z.preprocess((raw) => {
  const value = blankIsAbsent(firstOf(raw));
  if (typeof value !== 'string') return value;
  const text = value.toLowerCase();
  return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : value;
}, z.boolean({ error: 'Must be true or false' }).optional());

/** Text; an empty value counts as absent. */
export const text = z.preprocess((raw) => blankIsAbsent(firstOf(raw)), z.string({ error: 'Must be text' }).optional());

/**
 * One value of a closed list, in any case (`status=draft` or `DRAFT`): the one rule of every enum query
 * parameter (the interface's machine-readable variant spells values in lower case, GraphQL enums in upper
 * case). Blank is absent. `cased` is the case the values are declared in.
 */
export const anyCaseEnum = <T extends readonly [string, ...string[]]>(values: T, cased: 'upper' | 'lower' = 'upper') =>
  z
    .preprocess(
      (raw) => {
        const value = blankIsAbsent(firstOf(raw));
        if (typeof value !== 'string') return value;
        return cased === 'upper' ? value.trim().toUpperCase() : value.trim().toLowerCase();
      },
      z.enum(values, { error: (issue) => (issue.input === undefined ? 'Required' : `One of ${values.join(', ')} (any case)`) }).optional(),
    )
    .meta({ type: 'string', enum: [...new Set([...values, ...values.map((value) => (cased === 'upper' ? value.toLowerCase() : value.toUpperCase()))])] });
