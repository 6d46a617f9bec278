import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';

let counter = 0;

/** A fresh, migrated database for one test file: PostgreSQL when TEST_DATABASE_URL is set, else PGlite. */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const queries: string[] = [];
  // A key's lastUsedAt is written at most once a minute, whenever the minute lapses: on a slow machine
  // inside a counted request. It is bookkeeping, not the request's own work, so counts leave it out.
  const onQuery = (sql: string) => {
    if (!/^UPDATE "public"\."api_keys" SET "lastUsedAt"/.test(sql)) queries.push(sql);
  };
  return { ...(await open(options, onQuery)), queries };
}

export type TestDatabase = Database & {
  url?: string;
  /** SQL of every query so far; tests clear it and count. */
  queries: string[];
};

async function open(options: { poolSize?: number }, onQuery: (sql: string) => void): Promise<Database & { url?: string }> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (url && template) {
    // The name carries the vitest process' parent pid so global teardown can find leftovers.
    const name = `scm_t_${process.ppid}_${process.pid}_${counter++}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: target.toString(), migrate: false, poolSize: options.poolSize ?? 10, onQuery });
    return {
      ...database,
      url: target.toString(),
      async close() {
        await database.close();
        const dropper = new pg.Client({ connectionString: url });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  return openDatabase({ dataDir: 'memory://', loadDataDir: await migratedPgliteDump(), migrate: false, onQuery });
}

/** The PGlite data folder global set-up migrated, as a tarball to load into a new database. */
export const migratedPgliteDump = async () => new Blob([await readFile(inject('pgliteDump'))]);
