import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSpecifiers, root, sourceFiles } from './source-files.js';

/** The ledger's folder and its one door: the only file of the folder that code outside it imports. */
const LEDGER = 'src/services/inventory/ledger/';
const DOOR = `${LEDGER}stock-ledger.ts`;

/** The imports of `file` (a path from the root) that reach into the ledger past its door. */
export function pastTheDoor(file: string, specifiers: string[]): string[] {
  if (file.startsWith(LEDGER)) return [];
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({ specifier, target: relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts') }))
    .filter(({ target }) => target.startsWith(LEDGER) && target !== DOOR)
    .map(({ specifier }) => `${file} imports ${specifier}`);
}

describe('one door to the ledger', () => {
  it('flags an import of another ledger file from outside, and not the door nor imports within the ledger', () => {
    expect(pastTheDoor('src/services/inventory/adjustments/adjustments.ts', ['../ledger/row-locks.js'])).toHaveLength(1);
    expect(pastTheDoor('test/support/stock.ts', ['../../src/services/inventory/ledger/ledger-rows.js'])).toHaveLength(1);
    expect(pastTheDoor('src/services/transfers/bin-moves/bin-moves.ts', ['../../inventory/ledger/stock-ledger.js', '../../inventory/stock-lines/quantities.js'])).toEqual([]);
    expect(pastTheDoor(`${LEDGER}stock-ledger.ts`, ['./ledger-rows.js'])).toEqual([]);
  });

  it(`nothing outside inventory/ledger/ imports a ledger file but ${DOOR}`, () => {
    const files = ['src', 'test', 'bench', 'scripts', 'rest-adapter'].flatMap((folder) => sourceFiles(folder)).filter((f) => !f.startsWith('src/generated/'));
    expect(files.filter((f) => f.startsWith(LEDGER)).length).toBeGreaterThan(1);
    const found = files.flatMap((file) => pastTheDoor(file, importSpecifiers(readFileSync(join(root, file), 'utf8'))));
    expect(found).toEqual([]);
  });
});
