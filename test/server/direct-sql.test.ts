import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

// The hot paths' statements straight on PostgreSQL's pool (src/db/direct-sql.ts) must give what Prisma's $queryRaw gives, value
// for value and type for type, or a page would answer differently on PostgreSQL than on PGlite.
describe('direct statements', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('read every column type as Prisma reads it, parameters as Prisma sends them', async () => {
    const direct = database.directSql!;
    expect(direct).toBeDefined();
    const at = new Date('2026-03-01T23:30:00.250Z');
    const query = Prisma.sql`
      SELECT 9007199254740993::int8 AS big, (-12345678901234567890.125)::numeric AS num, 0.5::numeric(10, 2) AS small,
             '2026-03-01 12:34:56.789'::timestamp AS ts, '2026-03-01'::date AS day, '2026-03-01 12:00:00+02'::timestamptz AS tstz,
             '{"a": [1, "b"]}'::json AS j, '{"c": null}'::jsonb AS jb, ARRAY[1, 9007199254740993]::int8[] AS bigs,
             ARRAY['2026-01-02', '2026-12-31']::date[] AS days, ARRAY[1.5, 2]::numeric[] AS nums, true AS yes, NULL::int8 AS none,
             'tekst ü' AS text, 5::int4 AS int, 2.5::float8 AS float, ARRAY['x', 'y'] AS texts,
             ${at}::timestamp AS "dateParam", ${at}::timestamptz AS "dateParamTz", ${9007199254740993n}::int8 + 1 AS "bigParam",
             ${new Prisma.Decimal('1.10')}::numeric * 2 AS "decimalParam", ${['p', 'q']}::text[] AS "arrayParam", ${null}::text AS "nullParam"`;
    const [viaPool] = await direct.rows<Record<string, unknown>>(query);
    const [viaPrisma] = await database.prisma.$queryRaw<Record<string, unknown>[]>(query);
    expect(viaPool).toEqual(viaPrisma);
    for (const [column, value] of Object.entries(viaPrisma!)) {
      expect(Object.prototype.toString.call(viaPool![column]), column).toBe(Object.prototype.toString.call(value));
    }
    expect(viaPool!.big).toBe(9007199254740993n);
    expect((viaPool!.ts as Date).toISOString()).toBe('2026-03-01T12:34:56.789Z');
    expect((viaPool!.dateParam as Date).toISOString()).toBe(at.toISOString());
    expect(String(viaPool!.num)).toBe('-12345678901234567890.125');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('read timestamps of every precision and era as Prisma reads them', async () => {
    const texts = ['2026-03-01 12:34:56', '2026-03-01 12:34:56.5', '2026-03-01 12:34:56.05', '2026-03-01 12:34:56.000001', '1999-12-31 23:59:59.999999',
      '0099-06-30 01:02:03.4', '0999-01-01 00:00:00', '1000-01-01 00:00:00', '9999-12-31 23:59:59.999', '1970-01-01 00:00:00', '1969-12-31 23:59:59.999'];
    const query = Prisma.sql`SELECT t::timestamp AS at, t AS text FROM unnest(${texts}::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n`;
    const viaPool = await database.directSql!.rows<{ at: Date; text: string }>(query);
    const viaPrisma = await database.prisma.$queryRaw<{ at: Date; text: string }[]>(query);
    expect(viaPool.map((row) => row.at.toISOString())).toEqual(viaPrisma.map((row) => row.at.toISOString()));
    expect(viaPool.map((row) => row.at.toISOString()).slice(0, 6)).toEqual([
      '2026-03-01T12:34:56.000Z', '2026-03-01T12:34:56.500Z', '2026-03-01T12:34:56.050Z', '2026-03-01T12:34:56.000Z', '1999-12-31T23:59:59.999Z', '0099-06-30T01:02:03.400Z',
    ]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('read dates of every era as Prisma reads them', async () => {
    const texts = ['2026-03-01', '2024-02-29', '1970-01-01', '1969-12-31', '1000-01-01', '9999-12-31', '0999-12-31', '0099-06-30', '2000-01-01'];
    const query = Prisma.sql`SELECT t::date AS day FROM unnest(${texts}::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n`;
    const viaPool = await database.directSql!.rows<{ day: Date }>(query);
    const viaPrisma = await database.prisma.$queryRaw<{ day: Date }[]>(query);
    expect(viaPool.map((row) => row.day.toISOString())).toEqual(viaPrisma.map((row) => row.day.toISOString()));
    expect(viaPool.map((row) => row.day.toISOString().slice(0, 10))).toEqual(texts);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('read a stored row as the model reads it, and are counted as statements', async () => {
    const org = await database.prisma.organization.create({ data: { name: 'Hot reads' } });
    const location = await database.prisma.location.create({ data: { organizationId: org.id, code: 'HR-1', name: 'Hot reads' } });
    database.queries.length = 0;
    const [row] = await database.directSql!.rows(Prisma.sql`
      SELECT id, "organizationId", code, name, type, "createdAt", "updatedAt" FROM locations WHERE id = ${location.id}`);
    expect(row).toEqual(location);
    expect(database.queries).toHaveLength(1);
  });
});
