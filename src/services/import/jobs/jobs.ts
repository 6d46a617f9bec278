import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { RequestContext } from '../../../context.js';
import { importBody } from '../../../contracts/import/import-body.js';
import { parseContract } from '../../../contracts/parse.js';
import { DomainError, notFound } from '../../../kernel/errors.js';
import { uuidv7 } from '../../../db/ids.js';
import { Prisma, type ImportJob } from '../../../generated/prisma/client.js';
import type { ImportKind } from '../../../generated/prisma/enums.js';
import { authOf, orgId } from '../../tenant.js';
import type { ImportableKind } from '../../../kernel/import-kinds.js';
import { CHUNK_LINES, CHUNK_SIZE, CHUNK_SIZES, LINED_KINDS, MAX_ROWS } from '../../../kernel/import-limits.js';
import { CHUNK_APPLIERS, ROW_KEYS } from '../appliers/applier-registry.js';
import { mapInSlices, sliceClock } from '../../../kernel/yielding.js';
import { inTransaction } from '../../../db/transactions.js';

const linesOf = (row: unknown) => {
  const lines = row && typeof row === 'object' ? (row as { lines?: unknown }).lines : undefined;
  return Array.isArray(lines) ? Math.max(1, lines.length) : 1;
};
/** Chunks go in with one statement per this many rows, to keep each statement's parameters small. */
const ROWS_PER_INSERT = 10_000;
/** Generous interactive-transaction limit for storing or applying a large batch of rows. */
export const IMPORT_TX_OPTIONS = { timeout: 120_000, maxWait: 60_000 };

/**
 * In-process signals: 'created' (jobId) wakes the workers at once, 'progress' (job) follows each
 * checkpoint, for subscriptions. Other instances find new jobs by polling.
 */
export const importEvents = new EventEmitter();
importEvents.setMaxListeners(0);

const anyRows = importBody();

/**
 * The rows of a request body (the startImport argument `rows`): a JSON array of rows, or an object
 * `{ rows: [...] }`, parsed with the import body's contract; each row is judged when its chunk is applied.
 */
export function rowsOfBody(body: unknown): unknown[] {
  const { rows } = parseContract(anyRows, body);
  if (rows.length > MAX_ROWS) {
    throw new DomainError('PAYLOAD_TOO_LARGE', `Too many rows: ${rows.length} rows sent, at most ${MAX_ROWS} rows per import request; split the file into several requests`, {
      maxRows: MAX_ROWS,
      rows: rows.length,
    });
  }
  return rows;
}

/** Refuses a kind that has no applier yet. */
export function assertImportable(kind: ImportKind): asserts kind is ImportableKind {
  if (!CHUNK_APPLIERS[kind]) throw new DomainError('BAD_REQUEST', `Import of ${kind} rows is not available yet`);
}

/** Stores the job and its rows (in chunks) in one transaction and returns the PENDING job. */
export async function startImport(ctx: RequestContext, kind: ImportKind, body: unknown, query: object = {}): Promise<ImportJob> {
  const organizationId = orgId(ctx);
  const actor = authOf(ctx).actor;
  assertImportable(kind);
  const rows = rowsOfBody(body);
  const size = CHUNK_SIZES[kind] ?? CHUNK_SIZE;
  const parts = splitIntoChunks(rows, size, LINED_KINDS.has(kind));
  // 100,000 rows take a while to write out and compare: other requests get their turns in between.
  const chunks = await mapInSlices(parts, (part, index) => ({ index, firstRow: part.first + 1, json: rowsJson(part.rows) }));
  const rowKeys = ROW_KEYS[kind];
  const independentChunks = rowKeys !== undefined && (await chunksIndependent(rowKeys(organizationId), parts));
  const perInsert = Math.max(1, Math.floor(ROWS_PER_INSERT / size));
  const job = await inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const created = await tx.importJob.create({
      ...query,
      data: { organizationId, kind, totalRows: rows.length, totalChunks: chunks.length, independentChunks, createdByType: actor.type, createdBy: actor.id },
    });
    // Raw SQL with each chunk's rows as one JSON text parameter: no per-value JSON handling (createMany)
    // and no escaping into an array literal (unnest of a text[]).
    for (let i = 0; i < chunks.length; i += perInsert) {
      const values = chunks.slice(i, i + perInsert).map((c) => Prisma.sql`(${uuidv7()}, ${created.id}, ${c.index}::int, ${c.firstRow}::int, ${c.json}::json)`);
      await tx.$executeRaw`INSERT INTO import_job_chunks (id, "jobId", index, "firstRow", rows) VALUES ${Prisma.join(values)}`;
    }
    return created;
  }, IMPORT_TX_OPTIONS);
  importEvents.emit('created', job.id);
  return job;
}

/**
 * Rows as JSON text for storage. A number too large for a double (1e309 sent) was parsed to Infinity,
 * which JSON.stringify would write as null, a blank field the applier would take its default for (on
 * hand 0, unit cost kept): it is written as 1e999 instead, read back as Infinity, and the applier rejects
 * the row with its field.
 */
function rowsJson(rows: unknown[]): string {
  const text = JSON.stringify(rows);
  if (!text.includes('null') || !hasNonFinite(rows)) return text;
  const mark = `scm-non-finite-${randomUUID()}`;
  return JSON.stringify(rows, (_key, value) => (typeof value === 'number' && !Number.isFinite(value) ? `${mark}${value > 0 ? '+' : '-'}` : value))
    .replaceAll(`"${mark}+"`, '1e999')
    .replaceAll(`"${mark}-"`, '-1e999');
}

/** Whether any number in the value is not finite; iterative (the input check bounds the depth anyway). */
function hasNonFinite(value: unknown): boolean {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'number' && !Number.isFinite(v)) return true;
    if (v && typeof v === 'object') for (const item of Array.isArray(v) ? v : Object.values(v)) stack.push(item);
  }
  return false;
}

/** The rows in chunks of `size` rows, closed earlier at CHUNK_LINES lines when `lined`. */
export function splitIntoChunks(rows: unknown[], size: number, lined: boolean): { first: number; rows: unknown[] }[] {
  const parts: { first: number; rows: unknown[] }[] = [];
  let current: { first: number; rows: unknown[] } | undefined;
  let lines = 0;
  rows.forEach((row, i) => {
    const rowLines = lined ? linesOf(row) : 0;
    if (!current || current.rows.length >= size || (lined && lines + rowLines > CHUNK_LINES)) {
      current = { first: i, rows: [] };
      parts.push(current);
      lines = 0;
    }
    current.rows.push(row);
    lines += rowLines;
  });
  return parts;
}

/**
 * Whether no natural key of the rows is in two chunks, so that applying the chunks in any order, or at
 * once, writes what applying them in order would (within a chunk the last row of a key wins). A key of
 * null means the row cannot be told apart from others: the chunks are not independent.
 */
async function chunksIndependent(keyOf: (row: unknown) => string | null, parts: { rows: unknown[] }[]): Promise<boolean> {
  if (parts.length < 2) return false;
  const chunkOfKey = new Map<string, number>();
  const pause = sliceClock();
  for (const [chunk, part] of parts.entries()) {
    await pause();
    for (const row of part.rows) {
      const key = keyOf(row);
      if (key === null) return false;
      const seen = chunkOfKey.get(key);
      if (seen !== undefined && seen !== chunk) return false;
      chunkOfKey.set(key, chunk);
    }
  }
  return true;
}

/** One of the caller's organization's jobs; 404 for unknown or foreign ids. */
export async function getImportJob(ctx: RequestContext, id: string, query: object = {}): Promise<ImportJob> {
  const job = await ctx.prisma.importJob.findFirst({ ...query, where: { id, organizationId: orgId(ctx) } });
  if (!job) throw notFound('Import job');
  return job;
}
