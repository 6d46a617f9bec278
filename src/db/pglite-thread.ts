// The database thread of the embedded default: PGlite (PostgreSQL compiled to WebAssembly) runs its
// statements synchronously, so in the request thread every long statement would block every request.
// Here it has a thread of its own; threaded-pglite.ts is its face in the request thread.
import { parentPort, workerData } from 'node:worker_threads';
import { createPGlite } from './pglite-extensions.js';
import { PGlite, messages, type Transaction } from '@electric-sql/pglite';
import type { PgliteReply, PgliteRequest, PgliteThreadSetup, ThreadError } from './pglite-thread-messages.js';

const setup = workerData as PgliteThreadSetup;
const port = parentPort!;

function threadError(error: unknown): ThreadError {
  const e = error instanceof Error ? error : new Error(String(error));
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(e)) {
    if (value === undefined || typeof value === 'function') continue;
    try {
      structuredClone(value);
      fields[key] = value;
    } catch {
      // a field that cannot travel stays behind
    }
  }
  return { message: e.message, name: e.name, database: e instanceof messages.DatabaseError, fields };
}

/** Leaves values of these types as PostgreSQL's text, for the caller's own parsers. */
const rawParsers = (types: number[]) => Object.fromEntries(types.map((type) => [type, (text: string) => text]));

interface OpenTransaction {
  tx: Transaction;
  /** Its operations, one after another in the order they came. */
  chain: Promise<unknown>;
  finish: (commit: boolean) => void;
}

const transactions = new Map<number, OpenTransaction>();

function reply(id: number, work: Promise<unknown>) {
  work.then(
    (result) => port.postMessage({ id, ok: true, result } satisfies PgliteReply),
    (error: unknown) => port.postMessage({ id, ok: false, error: threadError(error) } satisfies PgliteReply),
  );
}

function inTransaction(id: number, op: (tx: Transaction) => Promise<unknown>): Promise<unknown> {
  const open = transactions.get(id);
  if (!open) return Promise.reject(new Error('Transaction is closed'));
  const next = open.chain.then(() => op(open.tx));
  open.chain = next.catch(() => undefined);
  return next;
}

function begin(id: number) {
  let began = false;
  const done = db.transaction(async (tx) => {
    let finish!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (finish = resolve));
    const open: OpenTransaction = { tx, chain: Promise.resolve(), finish };
    transactions.set(id, open);
    began = true;
    port.postMessage({ id, ok: true, result: id } satisfies PgliteReply);
    const commit = await decided;
    await open.chain;
    if (!commit && !tx.closed) await tx.rollback();
  });
  done.catch((error: unknown) => {
    if (!began) port.postMessage({ id, ok: false, error: threadError(error) } satisfies PgliteReply);
  });
  return done;
}

const pendingEnds = new Map<number, Promise<unknown>>();

function handle(request: PgliteRequest) {
  // Every statement reaches PGlite in the order it came: outside a transaction PGlite queues them behind
  // its own lock, inside one they run one after another on the transaction.
  switch (request.op) {
    case 'query': {
      const options = { rowMode: request.rowMode, parsers: rawParsers(request.rawTypes) };
      const run = (on: PGlite | Transaction) => on.query(request.sql, request.params, options);
      return reply(request.id, request.tx === undefined ? run(db) : inTransaction(request.tx, run));
    }
    case 'exec': {
      const options = { parsers: rawParsers(request.rawTypes) };
      const run = (on: PGlite | Transaction) => on.exec(request.sql, options);
      return reply(request.id, request.tx === undefined ? run(db) : inTransaction(request.tx, run));
    }
    case 'begin': {
      const done = begin(request.id);
      pendingEnds.set(request.id, done);
      return;
    }
    case 'rollback':
      return reply(request.id, inTransaction(request.tx, (tx) => tx.rollback()));
    case 'end': {
      const open = transactions.get(request.tx);
      const done = pendingEnds.get(request.tx);
      transactions.delete(request.tx);
      pendingEnds.delete(request.tx);
      if (!open || !done) return reply(request.id, Promise.reject(new Error('Transaction is closed')));
      open.finish(request.commit);
      return reply(request.id, done.then(() => null));
    }
    case 'close':
      return reply(request.id, db.close());
  }
}

let db: PGlite;
try {
  db = await createPGlite(setup.dataDir, setup.loadDataDir ? { loadDataDir: new Blob([setup.loadDataDir]) } : {});
  port.on('message', handle);
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: threadError(error) });
}
