import { createHash } from 'node:crypto';
import pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';

/**
 * Runs one statement straight on PostgreSQL's pool and gives its rows, for the hot paths whose cost is mostly
 * Prisma's own handling of a raw result (docs/lists.md, "Direct statements"): the same rows, in the same
 * JavaScript types, as `$queryRaw` gives (bigint as BigInt, numeric as Decimal, timestamp and date as Date in
 * UTC, json parsed). A statement on its own is its own transaction: work of several statements uses inTransaction.
 */
export interface DirectSql {
  rows<T>(query: Prisma.Sql): Promise<T[]>;
}

const OID = { int8: 20, numeric: 1700, timestamp: 1114, timestamptz: 1184, date: 1082, int8s: 1016, numerics: 1231, timestamps: 1115, dates: 1182 };

const utcTimestamp = (text: string) => (text === 'infinity' || text === '-infinity' ? new Date(NaN) : new Date(`${text.replace(' ', 'T')}Z`));
const utcDate = (text: string) => new Date(`${text}T00:00:00Z`);
const decimal = (text: string) => new Prisma.Decimal(text);
const bigint = (text: string) => BigInt(text);
// pg-types' own typings say a function; at run time arrayParser is { create(source, transform) }.
const arrayParser = pg.types.arrayParser as unknown as { create<T>(source: string, transform: (text: string) => T): { parse(): (T | null)[] } };
const arrayOf = <T>(item: (text: string) => T) => (text: string) => arrayParser.create(text, item).parse();

const parsers: Record<number, (text: string) => unknown> = {
  [OID.int8]: bigint,
  [OID.numeric]: decimal,
  [OID.timestamp]: utcTimestamp,
  [OID.date]: utcDate,
  [OID.int8s]: arrayOf(bigint),
  [OID.numerics]: arrayOf(decimal),
  [OID.timestamps]: arrayOf(utcTimestamp),
  [OID.dates]: arrayOf(utcDate),
};

const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => parsers[oid] ?? pg.types.getTypeParser(oid, format ?? 'text'),
};

/** Values as Prisma sends them: dates as UTC ISO text, bigints and decimals as their digits. */
function valueOf(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (Prisma.Decimal.isDecimal(value)) return (value as Prisma.Decimal).toString();
  return value;
}

export interface DirectSqlOptions {
  /** Distinct statements kept prepared on each connection (as for Prisma's own statements). */
  preparedStatements: number;
  /** Told the seconds of each statement (the query duration histogram). */
  observe?: (seconds: number) => void;
  /** Told the SQL of each statement (tests count statements with it). */
  onQuery?: (sql: string) => void;
}

export function directSql(pool: pg.Pool, options: DirectSqlOptions): DirectSql {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    const known = names.get(text);
    if (known || names.size >= options.preparedStatements) return known;
    const name = `scr_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
    return name;
  };
  return {
    async rows<T>(query: Prisma.Sql) {
      const text = query.text;
      options.onQuery?.(text);
      const started = performance.now();
      try {
        const result = await pool.query({ text, values: query.values.map(valueOf), name: nameOf(text), types });
        return result.rows as T[];
      } finally {
        options.observe?.((performance.now() - started) / 1000);
      }
    },
  };
}
