import type { TxContext } from '../../../db/transactions.js';

/** One row of an import request, with its 1-based position in the request. */
export interface ImportRow {
  rowNumber: number;
  data: unknown;
}

/** Why a row was not applied: the row stays out, the others go in. */
export interface RowRejection {
  rowNumber: number;
  field?: string;
  message: string;
}

/**
 * Applies one chunk of rows of one kind, for the caller `ctx`, inside the chunk's transaction `tx` (the caller commits the
 * chunk's checkpoint in the same transaction): it writes through `tx`, never `ctx.prisma`, so that a
 * chunk and its checkpoint commit or roll back together. `job` is the import job (the ledger's source).
 * Returns the rows it rejected; it throws only when the job cannot go on at all (the job then fails
 * with that reason).
 */
export type ChunkApplier = (ctx: TxContext, rows: ImportRow[], job: { id: string }) => Promise<RowRejection[]>;
