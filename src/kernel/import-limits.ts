import type { ImportKind } from '../generated/prisma/enums.js';

/** Most rows one import request may carry (413 beyond). */
export const MAX_ROWS = 100_000;
/** Largest import request body in bytes (413 beyond); other routes keep the 1 MB default. The REST adapter enforces it. */
export const MAX_BODY_BYTES = 50 * 1024 * 1024;
/** Rows per stored chunk: the unit of work and of the resume checkpoint (see CHUNK_SIZES). */
export const CHUNK_SIZE = 1_000;
/**
 * Chunk size per kind where the default does not fit. Catalog rows go in with one set-based statement
 * per chunk, where 2,000 rows cut the fixed cost per chunk (claim, checkpoint, commit) against 1,000
 * (bench/import/breakdown.ts: about 10% faster on PostgreSQL). Demand rows cost PostgreSQL more each (two
 * foreign-key checks): chunks of 1,000 keep the time a worker holds a core short, so GET /api/products
 * stayed under 100 ms p99 during a demand import where 2,000 sometimes went past it, still above 20,000
 * rows/s (npm run bench -- --import). Inventory rows are written in batches too (one guarded UPDATE and
 * one ledger INSERT per chunk): 100,000 rows in chunks of 1,000 went in at 5,400 rows/s on PostgreSQL and
 * 500 at 4,800, but on single-connection PGlite requests wait behind a whole chunk (GET /api/products
 * p50 300 ms during the import with 1,000, 170 ms with 500): 500 is the middle.
 */
export const CHUNK_SIZES: Partial<Record<ImportKind, number>> = { INVENTORY: 500, CATALOG: 2_000, DEMAND_HISTORY: 1_000 };
/**
 * Kinds whose rows carry lines also close a chunk at this many lines (a row is never split): a row may
 * hold up to 1,000 lines, each about the work of a row of another kind, and a chunk is one transaction.
 */
export const CHUNK_LINES = 1_000;
export const LINED_KINDS: ReadonlySet<ImportKind> = new Set(['ORDERS', 'PURCHASE_ORDERS']);
/** Row errors listed in a job envelope (errorCount tells how many there are in all). */
export const ENVELOPE_ERRORS = 100;
/** Row errors a dry run lists (errorCount tells how many there are in all): enough to fix a file by, bounded. */
export const DRY_RUN_ERRORS = 1_000;
