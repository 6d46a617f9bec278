import type { RequestContext } from '../../../context.js';
import { inTransaction } from '../../../db/transactions.js';
import type { ImportKind } from '../../../generated/prisma/enums.js';
import { CHUNK_SIZE, CHUNK_SIZES, DRY_RUN_ERRORS, LINED_KINDS } from '../../../kernel/import-limits.js';
import { ROW_CHECKS } from '../appliers/row-check-registry.js';
import { assertImportable, rowsOfBody, splitIntoChunks } from './jobs.js';
import type { RowRejection } from './kinds.js';

/** What a dry run of an import found. */
export interface ImportValidation {
  kind: ImportKind;
  totalRows: number;
  /** Rows the import would apply. */
  validRows: number;
  /** Rows the import would reject (a row may have several errors). */
  rejectedRows: number;
  /** Row errors in all. */
  errorCount: number;
  /** The first DRY_RUN_ERRORS row errors, in row order. */
  errors: RowRejection[];
}

/**
 * Judges an import's rows as startImport and the workers would, and writes nothing: the same body rules and
 * row limit, the same chunks, and for each chunk the checks its applier makes before it writes (the row
 * contract, references in the caller's organization, the rules of the stored data), each chunk read in a
 * READ ONLY transaction of its own, so that other requests get their turns between chunks. What it cannot
 * foresee: a row the database itself would refuse, and the effect of the request's earlier rows on later
 * ones (but for inventory rows of one stock line, which it follows), or of other writers meanwhile.
 */
export async function validateImport(ctx: RequestContext, kind: ImportKind, body: unknown): Promise<ImportValidation> {
  assertImportable(kind);
  const rows = rowsOfBody(body);
  const check = ROW_CHECKS[kind]();
  const errors: RowRejection[] = [];
  const rejected = new Set<number>();
  let errorCount = 0;
  for (const part of splitIntoChunks(rows, CHUNK_SIZES[kind] ?? CHUNK_SIZE, LINED_KINDS.has(kind))) {
    const chunk = part.rows.map((data, i) => ({ rowNumber: part.first + i + 1, data }));
    const rejections = await inTransaction(ctx, async (tx) => {
      await tx.prisma.$executeRawUnsafe('SET TRANSACTION READ ONLY');
      return check(tx, chunk);
    });
    for (const rejection of rejections) {
      rejected.add(rejection.rowNumber);
      errorCount++;
      if (errors.length < DRY_RUN_ERRORS) errors.push(rejection);
    }
  }
  return { kind, totalRows: rows.length, validRows: rows.length - rejected.size, rejectedRows: rejected.size, errorCount, errors };
}
