import type { TxContext } from '../../../db/transactions.js';
import type { ImportRow, RowRejection } from '../jobs/kinds.js';

/**
 * The checks an applier makes of one chunk's rows before it writes (each row's contract, its references
 * in the caller's organization, the rules the stored data sets), made without writing: the rows a real
 * import would reject, for a dry run. One is made per request and given its chunks in order, so a check
 * may remember what the request's earlier rows would have changed (the inventory rows' stock lines).
 */
export type RowCheck = (ctx: TxContext, rows: ImportRow[]) => Promise<RowRejection[]>;
