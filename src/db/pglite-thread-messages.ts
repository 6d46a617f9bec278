// What the request thread and the database thread say to each other (pglite-thread.ts, threaded-pglite.ts).

export interface PgliteThreadSetup {
  dataDir: string;
  /** A data directory dump to start from (tests), moved to the thread. */
  loadDataDir?: ArrayBuffer;
}

export type PgliteRequest =
  | { id: number; op: 'query'; tx?: number; sql: string; params: unknown[]; rowMode?: 'array' | 'object'; rawTypes: number[] }
  | { id: number; op: 'exec'; tx?: number; sql: string; rawTypes: number[] }
  /** Opens a transaction; the answer comes once it holds the database, its result is the transaction's id. */
  | { id: number; op: 'begin' }
  | { id: number; op: 'rollback'; tx: number }
  /** Ends a transaction: commits unless it was rolled back or `commit` is false. */
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' };

export interface ThreadError {
  message: string;
  name: string;
  /** A PostgreSQL error (messages.DatabaseError): its fields travel with it. */
  database: boolean;
  fields: Record<string, unknown>;
}

export type PgliteReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ThreadError };

/** The ready signal the thread sends once the database is open (or why it could not open it). */
export type PgliteReady = { ready: true } | { ready: false; error: ThreadError };
