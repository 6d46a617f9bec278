import type { Worker } from 'node:worker_threads';
import { messages, type Results } from '@electric-sql/pglite';
import { siblingModule, startModuleWorker } from '../kernel/module-worker.js';
import type { PgliteReady, PgliteReply, PgliteRequest, PgliteThreadSetup, ThreadError } from './pglite-thread-messages.js';

type Parsers = Record<number, (text: string, type: number) => unknown>;
interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Parsers;
}
type Request = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;

export interface ThreadedTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

function rebuiltError(error: ThreadError): Error {
  const rebuilt = error.database ? new messages.DatabaseError(error.message, 0, 'error') : new Error(error.message);
  return Object.assign(rebuilt, error.database ? {} : { name: error.name }, error.fields);
}

/** Applies the caller's parsers to the columns the thread left as text. */
function parsed<T>(result: Results<T>, parsers: Parsers | undefined): Results<T> {
  if (!parsers) return result;
  const columns = result.fields.map((field, index) => ({ index, name: field.name, parse: parsers[field.dataTypeID], type: field.dataTypeID })).filter((c) => c.parse);
  if (!columns.length) return result;
  for (const row of result.rows as unknown[]) {
    for (const column of columns) {
      const values = row as Record<string | number, unknown>;
      const key = Array.isArray(row) ? column.index : column.name;
      if (typeof values[key] === 'string') values[key] = column.parse!(values[key] as string, column.type);
    }
  }
  return result;
}

const rawTypes = (parsers: Parsers | undefined) => (parsers ? Object.keys(parsers).map(Number) : []);

/**
 * The embedded database in a thread of its own (pglite-thread.ts), with the part of PGlite's interface
 * the Prisma adapter uses: query, exec and transaction. PGlite runs each statement synchronously, so in
 * the request thread a long statement would stall every request; here the request thread only waits.
 * Values come back parsed by PGlite, except the types the caller brings its own parsers for: those come
 * as text and are parsed here.
 */
export class ThreadedPGlite {
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: PgliteReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      this.holdProcess();
      if (reply.ok) waiting.resolve(reply.result);
      else waiting.reject(rebuiltError(reply.error));
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiting of this.pending.values()) waiting.reject(this.failure);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the database thread stopped (exit code ${code})`)));
    this.holdProcess();
  }

  static async open(dataDir: string, loadDataDir?: Blob): Promise<ThreadedPGlite> {
    const setup: PgliteThreadSetup = { dataDir };
    if (loadDataDir) setup.loadDataDir = await loadDataDir.arrayBuffer();
    const worker = startModuleWorker(siblingModule(import.meta.url, 'pglite-thread'), {
      workerData: setup,
      transferList: setup.loadDataDir ? [setup.loadDataDir] : [],
    });
    let listeners: [string, (...args: any[]) => void][] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    const ready = await new Promise<PgliteReady>((resolve, reject) => {
      const exit = (code: number) => reject(new Error(`the database thread stopped before it opened the database (exit code ${code})`));
      listeners = [['message', resolve], ['error', reject], ['exit', exit]];
      for (const [event, listener] of listeners) worker.once(event, listener);
    });
    // Only ours: the Worker keeps listeners of its own.
    for (const [event, listener] of listeners) worker.off(event, listener);
    if (!ready.ready) {
      await worker.terminate();
      throw rebuiltError(ready.error);
    }
    return new ThreadedPGlite(worker);
  }

  /** The thread keeps the process alive only while a statement is under way, as a socket would. */
  private holdProcess() {
    if (this.pending.size) this.worker.ref();
    else this.worker.unref();
  }

  private call<T>(request: Request): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.holdProcess();
      this.worker.postMessage({ ...request, id });
    });
  }

  async query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number): Promise<Results<T>> {
    const result = await this.call<Results<T>>({ op: 'query', tx, sql, params, rowMode: options.rowMode, rawTypes: rawTypes(options.parsers) });
    return parsed(result, options.parsers);
  }

  async exec(sql: string, options: QueryOptions = {}, tx?: number): Promise<Results[]> {
    const results = await this.call<Results[]>({ op: 'exec', tx, sql, rawTypes: rawTypes(options.parsers) });
    return results.map((result) => parsed(result, options.parsers));
  }

  /** Runs `work` in a transaction: committed when it resolves, rolled back when it throws or rolls back. */
  async transaction<T>(work: (tx: ThreadedTransaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ op: 'begin' });
    let closed = false;
    const check = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx: ThreadedTransaction = {
      query: async (sql, params, options) => (check(), this.query(sql, params, options, id)),
      exec: async (sql, options) => (check(), this.exec(sql, options, id)),
      rollback: async () => {
        check();
        await this.call({ op: 'rollback', tx: id });
        closed = true;
      },
      get closed() {
        return closed;
      },
    };
    let value: T;
    try {
      value = await work(tx);
    } catch (error) {
      closed = true;
      await this.call({ op: 'end', tx: id, commit: false }).catch(() => undefined);
      throw error;
    }
    closed = true;
    await this.call({ op: 'end', tx: id, commit: true });
    return value;
  }

  async close(): Promise<void> {
    if (this.failure) return;
    await this.call({ op: 'close' });
    await this.worker.terminate();
  }
}
