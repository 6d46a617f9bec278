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

const parsedTimestamp = (text: string) => (text === 'infinity' || text === '-infinity' ? new Date(NaN) : new Date(`${text.replace(' ', 'T')}Z`));
const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const twoDigits = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);
/**
 * PostgreSQL's timestamp text ('2026-11-29 23:09:39.123456') read field by field: a list's timestamps cost less than
 * half of what parsing the text as a date string costs. Years before 1000, after 9999, BC and infinities take the
 * general path (Date.UTC reads years 0-99 as 1900-1999). Milliseconds are truncated, as the general path truncates.
 */
function utcTimestamp(text: string): Date {
  const n = text.length;
  if (n < 19 || n > 26 || text.charCodeAt(4) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(0) === 48 || (n > 19 && text.charCodeAt(19) !== 46)) {
    return parsedTimestamp(text);
  }
  const ms = n > 20 ? digit(text, 20) * 100 + (n > 21 ? digit(text, 21) * 10 : 0) + (n > 22 ? digit(text, 22) : 0) : 0;
  return new Date(Date.UTC(twoDigits(text, 0) * 100 + twoDigits(text, 2), twoDigits(text, 5) - 1, twoDigits(text, 8), twoDigits(text, 11), twoDigits(text, 14), twoDigits(text, 17), ms));
}
/** PostgreSQL's date text ('2026-11-29') read field by field, as utcTimestamp reads a timestamp; other forms (years before 1000 or after 9999, BC, infinities) take the general path. */
function utcDate(text: string): Date {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(0) === 48) return new Date(`${text}T00:00:00Z`);
  return new Date(Date.UTC(twoDigits(text, 0) * 100 + twoDigits(text, 2), twoDigits(text, 5) - 1, twoDigits(text, 8)));
}
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
