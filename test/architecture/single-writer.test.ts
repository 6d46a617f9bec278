import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, sourceFiles } from './source-files.js';

/** The one module allowed to write stock lines and the stock ledger. */
const LEDGER = 'src/services/inventory/ledger/';

/** Raw SQL and Prisma calls that write the stock_lines or stock_transactions tables (across line breaks too). */
const WRITES: RegExp[] = [
  /\b(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|MERGE\s+INTO)\s+(?:ONLY\s+)?(?:"?public"?\.)?"?(?:stock_lines|stock_transactions)\b/gi,
  /\.\s*(?:stockLine|stockTransaction)\s*\.\s*(?:create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\b/g,
];

/** Each write of stock in `source`, as `line: matched text`. */
export function stockWrites(source: string): string[] {
  return WRITES.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => `${source.slice(0, m.index).split('\n').length}: ${m[0].replace(/\s+/g, ' ')}`));
}

describe('one writer of stock', () => {
  it('recognizes the writes of every form, and not the reads', () => {
    const writes = [
      'UPDATE stock_lines SET "qtyOnHand" = 1',
      '  update stock_lines s set x = 1',
      'INSERT INTO stock_transactions (id) VALUES (1)',
      'insert into "stock_lines" (id) values (1)',
      'DELETE FROM stock_transactions WHERE true',
      'UPDATE ONLY public.stock_lines SET x = 1',
      'await tx.stockLine.createMany({ data })',
      'await ctx.prisma.stockTransaction.create({ data })',
      'db.stockLine.upsert({ where, create, update })',
      'tx.stockLine\n  .updateMany({})',
      'UPDATE\n      stock_lines s SET x = 1',
      'prisma.stockTransaction.deleteMany({})',
    ];
    for (const text of writes) expect(stockWrites(text), text).toHaveLength(1);
    const reads = [
      'SELECT * FROM stock_lines s',
      'LEFT JOIN stock_lines s ON s.id = t."stockLineId"',
      'UPDATE import_jobs SET state = 1',
      'INSERT INTO stock_lines_archive (id) VALUES (1)',
      'await tx.stockLine.findMany({ where })',
      'await tx.stockTransaction.count()',
      'const stockLine = await findOrCreateStockLine(ctx, key)',
    ];
    for (const text of reads) expect(stockWrites(text), text).toEqual([]);
  });

  it('nothing outside inventory/ledger/ writes stock_lines or stock_transactions', () => {
    const found = sourceFiles('src')
      .filter((file) => !file.startsWith(LEDGER) && !file.startsWith('src/generated/'))
      .flatMap((file) => stockWrites(readFileSync(join(root, file), 'utf8')).map((write) => `${file}:${write}`));
    expect(found).toEqual([]);
  });

  it('the ledger module does write them (the scan looks where the writes are)', () => {
    const found = sourceFiles(LEDGER.slice(0, -1)).flatMap((file) => stockWrites(readFileSync(join(root, file), 'utf8')));
    expect(found.length).toBeGreaterThan(0);
  });
});
