import { z } from 'zod';
import { BAD_CURSOR_MESSAGE, idOfCursor } from '../../kernel/id-cursors.js';
import { IMPORTABLE_KINDS } from '../../kernel/import-kinds.js';
import { MAX_WINDOW_DAYS } from '../../kernel/input-limits.js';
import { dateOrDateTimeText, windowWithin } from '../date-times.js';
import { anyCaseEnum, text, wholeNumberOr } from '../query-values.js';

export const IMPORT_JOBS_DEFAULT_LIMIT = 50;
export const IMPORT_JOBS_MAX_LIMIT = 100;
export const IMPORT_JOB_STATES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The creation window as instants: `from` from the start of its day, a plain `to` date through its whole day (UTC). */
export function createdWindow(f: { from?: string | null; to?: string | null }): { gte?: Date; lte?: Date } {
  const gte = f.from ? new Date(DAY.test(f.from) ? `${f.from}T00:00:00.000Z` : f.from) : undefined;
  const lte = f.to ? (DAY.test(f.to) ? new Date(Date.parse(`${f.to}T00:00:00.000Z`) + 86_400_000 - 1) : new Date(f.to)) : undefined;
  return { ...(gte && { gte }), ...(lte && { lte }) };
}

const spanWithin = windowWithin('from', 'to');
const windowInOrder = (f: { from?: string | null; to?: string | null }, issue: z.RefinementCtx) => {
  const { gte, lte } = createdWindow(f);
  if (gte && lte && gte > lte) issue.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
  spanWithin(f, issue);
};

/** A cursor the list issued (the importJobs connection's), checked here so that a bad one is named as the caller named it. */
const idCursor = text.pipe(
  z
    .string()
    .max(500, 'At most 500 characters')
    .refine((cursor) => idOfCursor(cursor) !== undefined, BAD_CURSOR_MESSAGE)
    .optional(),
);

const filterFields = {
  status: anyCaseEnum(IMPORT_JOB_STATES).meta({ description: `Only jobs in this state: ${IMPORT_JOB_STATES.join(', ')} (any case).` }),
  kind: anyCaseEnum(IMPORTABLE_KINDS).meta({ description: `Only jobs of this kind: ${IMPORTABLE_KINDS.join(', ')} (any case).` }),
  from: dateOrDateTimeText.meta({ description: 'Only jobs created at or after this date (start of day, UTC) or date-time with a time zone.' }),
  to: dateOrDateTimeText.meta({
    description: `Only jobs created at or before this date (the whole day, UTC, included) or date-time with a time zone; not before from, at most ${MAX_WINDOW_DAYS} days after it.`,
  }),
};

/** Filter of the importJobs connection (arguments besides the connection's own). */
export const importJobFilter = z.object(filterFields).superRefine(windowInOrder);

/** Query of GET /api/import/jobs: the filter, a page size and the cursor of the page to go on from. */
export const importJobListQuery = z
  .object({
    ...filterFields,
    limit: wholeNumberOr(IMPORT_JOBS_DEFAULT_LIMIT, `Must be a whole number from 1 to ${IMPORT_JOBS_MAX_LIMIT}`, { min: 1, max: IMPORT_JOBS_MAX_LIMIT }).meta({
      description: `Page size (default ${IMPORT_JOBS_DEFAULT_LIMIT}, at most ${IMPORT_JOBS_MAX_LIMIT}).`,
    }),
    cursor: idCursor.meta({
      description: 'nextCursor of the previous page: the page of older jobs after it. Not together with before.',
    }),
    before: idCursor.meta({
      description: 'previousCursor of a page: the page of newer jobs before it. Not together with cursor.',
    }),
  })
  .superRefine(windowInOrder)
  .superRefine((q, issue) => {
    if (q.cursor && q.before) issue.addIssue({ code: 'custom', path: ['before'], message: 'Not together with cursor' });
  });
