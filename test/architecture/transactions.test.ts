import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, sourceFiles } from './source-files.js';

// The transaction travels in the context (docs/development.md, "Transactions"): work opens one with
// inTransaction(ctx, …) and passes the context on, never a bare handle. One place opens transactions.

const OPENER = 'src/db/transactions.ts';
const code = ['src', 'rest-adapter', 'bench'].flatMap((folder) => sourceFiles(folder)).filter((file) => !file.startsWith('src/generated/'));
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('the transaction in the context', () => {
  it(`only ${OPENER} opens a transaction ($transaction)`, () => {
    expect(code.filter((file) => file !== OPENER && /\.\$transaction\s*\(/.test(read(file)))).toEqual([]);
  });

  it('no service function takes a bare transaction handle as a parameter', () => {
    const bare = /\(\s*(?:tx|db)\s*:\s*(?:Tx|Prisma\.TransactionClient)\b|,\s*(?:tx|db)\s*:\s*(?:Tx|Prisma\.TransactionClient)\b/;
    expect(sourceFiles('src/services').filter((file) => bare.test(read(file)))).toEqual([]);
  });
});
