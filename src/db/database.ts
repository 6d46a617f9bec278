import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client.js';
import { applyPendingMigrations } from './migrations.js';
import { WholeScriptPrismaPg } from './whole-script-pg.js';
import { ThreadedPGlite } from './threaded-pglite.js';
import { lockDataDir } from './data-dir-lock.js';
import { processMetrics } from '../kernel/metrics.js';
import { timedAdapterFactory } from './timed-adapter.js';
import { type DirectSql, directSql } from './direct-sql.js';

/** The database client of the process (for a client or a transaction handle, see Db in transactions.ts). */
export type Client = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: 'pglite' | 'postgres';
  /** The migration engine's adapter factory (on PostgreSQL, over a pool of one connection of its own, see migrate()). */
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** PostgreSQL: the connection pool behind `prisma` (the rate limiter's counters use it too). */
  pool?: pg.Pool;
  /** PostgreSQL: the hot paths' statements straight on the pool (src/db/direct-rows.ts); absent on PGlite, where Prisma runs them. */
  directSql?: DirectSql;
  /** PostgreSQL: the URL it was opened with. */
  url?: string;
  /** PostgreSQL: the URL for a session of its own (the event listener's LISTEN): directUrl, else url. */
  sessionUrl?: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgresql:// URL; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /**
   * PostgreSQL: a URL for what needs a session of its own, the migrations (a session advisory lock) and the event
   * listener (LISTEN): the server itself when DATABASE_URL goes through a transaction-pooling PgBouncer. Default
   * databaseUrl.
   */
  directUrl?: string;
  /** PGlite data folder; 'memory://' for an in-memory database. */
  dataDir?: string;
  /** A prepared PGlite data directory dump to start from (tests). */
  loadDataDir?: Blob | File;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /**
   * PostgreSQL: how many distinct statements are kept prepared on each connection (0: none). Preparing
   * skips planning on every later run; planning is a large share of the cost of the hot queries.
   */
  preparedStatements?: number;
  migrate?: boolean;
  log?: (message: string) => void;
  /** Called with the SQL of every query (tests count queries with it). */
  onQuery?: (sql: string) => void;
}

function newClient(untimed: PrismaPg | PrismaPGlite, onQuery?: (sql: string) => void) {
  const metrics = processMetrics();
  const adapter = timedAdapterFactory(untimed, (seconds) => metrics.statement(seconds));
  if (!onQuery) return new PrismaClient({ adapter });
  const client = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  client.$on('query', (event) => onQuery(event.query));
  return client as unknown as PrismaClient;
}

/**
 * Names statements (by a hash of their SQL) so that `pg` prepares each once per connection and reuses
 * it. Only the first `limit` distinct statements get a name, which bounds what every connection keeps
 * prepared (queries whose SQL varies with the number of values would otherwise grow it without end).
 */
function statementNames(limit: number): ((query: { sql: string }) => string) | undefined {
  if (limit <= 0) return undefined;
  const names = new Map<string, string>();
  // The adapter passes the name on to pg, which runs a statement without one unprepared.
  return ({ sql }) => {
    const known = names.get(sql);
    if (known || names.size >= limit) return known as string;
    const name = `scm_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
    return name;
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let database: Database;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // pool.end() resolves before its connections have finished closing; close() waits for them so
    // that dropping the database right after (tests) cannot kill a connection that is still closing.
    const open = new Set<pg.PoolClient>();
    pool.on('connect', (client) => {
      open.add(client);
      client.once('end', () => open.delete(client));
    });
    // The migration engine gets its own factory without prepared statements (statements prepared before a
    // migration changed the tables must not be reused after it), over a pool of ONE connection: it takes a
    // session-level advisory lock and releases it with a later statement, which a shared pool may send on
    // another connection, leaving the lock held by an idle pooled connection for as long as this process runs,
    // and every other instance's start waiting for it until the engine's 10 s timeout.
    const migrationPool = new pg.Pool({ connectionString: options.directUrl ?? options.databaseUrl, max: 1 });
    const factory = new WholeScriptPrismaPg(migrationPool);
    const prisma = newClient(new PrismaPg(pool, { statementNameGenerator: statementNames(options.preparedStatements ?? 500) }), options.onQuery);
    database = {
      prisma,
      kind: 'postgres',
      factory,
      pool,
      directSql: directSql(pool, {
        preparedStatements: options.preparedStatements ?? 500,
        observe: (seconds) => processMetrics().statement(seconds),
        onQuery: options.onQuery,
      }),
      url: options.databaseUrl,
      sessionUrl: options.directUrl ?? options.databaseUrl,
      close: async () => {
        await prisma.$disconnect();
        const closing = [...open].map((client) => new Promise((resolve) => client.once('end', resolve)));
        await pool.end();
        await Promise.all(closing);
        if (!migrationPool.ended) await migrationPool.end();
      },
    };
  } else {
    const dataDir = options.dataDir ?? './.data';
    let release = async () => {};
    if (!dataDir.startsWith('memory://')) {
      await mkdir(dataDir, { recursive: true });
      // One process at a time: a second one (the admin CLI beside a running server) would write to a copy
      // of the database that the first never sees, and lose it.
      release = await lockDataDir(dataDir);
    }
    // PGlite runs each statement synchronously: in a thread of its own, a long one never stalls requests.
    const pglite = await ThreadedPGlite.open(dataDir, options.loadDataDir).catch(async (error: unknown) => {
      await release();
      throw error;
    });
    // The adapter uses only query, exec and transaction, which the threaded database answers alike.
    const factory = new PrismaPGlite(pglite as unknown as PGlite);
    const prisma = newClient(factory, options.onQuery);
    database = {
      prisma,
      kind: 'pglite',
      factory,
      close: async () => {
        await prisma.$disconnect();
        await pglite.close();
        await release();
      },
    };
  }
  if (options.migrate !== false) {
    const applied = await applyPendingMigrations(database.factory);
    if (applied.length) options.log?.(`applied migrations: ${applied.join(', ')}`);
  }
  // Its one connection is not needed again until the next start (nothing else migrates).
  if (database.kind === 'postgres' && database.factory instanceof WholeScriptPrismaPg) await database.factory.endPool();
  return database;
}
