import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

// The database as the services use it (Prisma over the adapter), on PGlite through its own thread
// (src/db/threaded-pglite.ts) and on PostgreSQL over the pool: both must answer alike.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

describe('the database handle', () => {
  it('leaves the request thread free while a long statement runs', async () => {
    // Turns of the request thread's event loop while the statement runs: the longest gap between two
    // turns is a block. Had the statement run in this thread (PGlite in-process runs it synchronously),
    // one gap would hold most of the statement's time.
    let ended = false;
    let longestGap = 0;
    let last = performance.now();
    const started = last;
    const turns = (async () => {
      while (!ended) {
        await new Promise((resolve) => setImmediate(resolve));
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        last = now;
      }
    })();
    const rows = await database.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM generate_series(1, 3000000) AS g, LATERAL (SELECT g % 7) AS x');
    const took = performance.now() - started;
    ended = true;
    await turns;
    expect(Number(rows[0]!.n)).toBe(3_000_000);
    expect(longestGap).toBeLessThan(took / 2);
  });

  it('round-trips the types the schema uses, as values of the same kinds', async () => {
    const [row] = await database.prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT 42::int4 AS i, 9007199254740993::int8 AS big, 12.3456::numeric(14,4) AS dec, 1.5::float8 AS f, true AS b, 'tekst ✓' AS t,
              '2026-11-26T10:20:30.123Z'::timestamptz AS ts, '2026-11-26'::date AS d, '{"a": [1, 2]}'::jsonb AS j,
              ARRAY['x', 'y']::text[] AS arr, ARRAY[1, 2]::int4[] AS ints, NULL::text AS nothing`,
    );
    expect(row).toEqual({
      i: 42,
      big: 9007199254740993n,
      dec: expect.anything(),
      f: 1.5,
      b: true,
      t: 'tekst ✓',
      ts: new Date('2026-11-26T10:20:30.123Z'),
      d: new Date('2026-11-26T00:00:00.000Z'),
      j: { a: [1, 2] },
      arr: ['x', 'y'],
      ints: [1, 2],
      nothing: null,
    });
    expect(String(row!.dec)).toBe('12.3456');
  });

  it('gives PostgreSQL errors their codes, as Prisma maps them', async () => {
    const error = await database.prisma.$queryRawUnsafe('SELECT 1 / 0').catch((e: unknown) => e as { code?: string; meta?: { code?: string } });
    expect(error).toMatchObject({ code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '22012' } } } });
    await expect(database.prisma.organization.create({ data: { id: 'dup-org', name: 'A' } as never })).resolves.toBeTruthy();
    await expect(database.prisma.organization.create({ data: { id: 'dup-org', name: 'B' } as never })).rejects.toMatchObject({ code: 'P2002' });
  });

  it('commits a transaction that ends well and leaves nothing of one that throws', async () => {
    await database.prisma.$transaction(async (tx) => {
      await tx.organization.create({ data: { id: 'tx-kept', name: 'Kept' } as never });
    });
    await expect(
      database.prisma.$transaction(async (tx) => {
        await tx.organization.create({ data: { id: 'tx-gone', name: 'Gone' } as never });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    const ids = (await database.prisma.organization.findMany({ where: { id: { in: ['tx-kept', 'tx-gone'] } }, select: { id: true } })).map((o) => o.id);
    expect(ids).toEqual(['tx-kept']);
  });

  it('runs a statement from outside only after an open transaction ends, never inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = database.prisma.$transaction(async (tx) => {
      await tx.organization.create({ data: { id: 'tx-late', name: 'Late' } as never });
      await held;
      throw new Error('rolled back');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outside = database.prisma.organization.count({ where: { id: 'tx-late' } });
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    expect(await outside).toBe(0);
  });
});
