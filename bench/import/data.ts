// Rows of the import part of `npm run bench`: 100,000 catalog rows (new SKUs) and 100,000 demand-history
// rows (the benchmark's 10,000 products × 2 locations × 5 weeks), as the loader would post them, and
// the same rows as CSV for the bare COPY.
import { operatorContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/database.js';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { MAX_ROWS } from '../../src/kernel/import-limits.js';
import { PRODUCT_COUNT } from '../harness/data.js';

export const IMPORT_ROWS = 100_000;
/**
 * Rows per request: all of them in one request, the most the API takes (MAX_ROWS), as
 * `npm run import -- <kind> <file> --batch 100000` posts them; and how often the job's status is asked.
 */
export const LOADER_BATCH = MAX_ROWS;
export const LOADER_POLL_MS = 100;
export const LOCATION_CODES = ['IMP-DC-1', 'IMP-DC-2'];
const WEEKS = IMPORT_ROWS / PRODUCT_COUNT / LOCATION_CODES.length;
const CATEGORIES = Array.from({ length: 20 }, (_, i) => `Import category ${i + 1}`);

export interface ImportKindData {
  kind: 'catalog' | 'demand-history' | 'inventory';
  rows: Record<string, string | number>[];
  /** The bare COPY's table and its CSV (same rows, same order). */
  table: string;
  csv: string;
}

/** Creates the locations the demand rows name (the data folder or database is closed again). */
export async function prepareImportData(target: { databaseUrl?: string; dataDir?: string }, organizationId: string): Promise<void> {
  const database = await openDatabase(target);
  try {
    for (const code of LOCATION_CODES) await createLocationFor(operatorContext(database.prisma, 'bench-setup'), { organizationId, code, name: `Import bench ${code}` });
  } finally {
    await database.close();
  }
}

const csvCell = (value: string | number | undefined) => (value === undefined ? '' : typeof value === 'number' ? String(value) : `"${value.replace(/"/g, '""')}"`);

function toCsv(rows: Record<string, string | number>[], columns: string[]): string {
  return `${rows.map((row) => columns.map((c) => csvCell(row[c])).join(',')).join('\n')}\n`;
}

export function catalogData(): ImportKindData {
  const rows = Array.from({ length: IMPORT_ROWS }, (_, i) => {
    const n = i + 1;
    return {
      externalId: `IMP-${String(n).padStart(7, '0')}`,
      name: `Imported product ${n}`,
      description: `Row ${n} of the catalog import: a ${['small', 'medium', 'large'][n % 3]} item in carton of ${(n % 12) + 1}`,
      unitCost: ((n % 900) + 1) / 4,
      category: CATEGORIES[n % CATEGORIES.length]!,
    };
  });
  return {
    kind: 'catalog',
    rows,
    table: 'bench_copy_catalog (external_id text, name text, description text, unit_cost numeric, category text)',
    csv: toCsv(rows, ['externalId', 'name', 'description', 'unitCost', 'category']),
  };
}

export function demandData(): ImportKindData {
  const rows: Record<string, string | number>[] = [];
  const firstMonday = Date.UTC(2026, 0, 5);
  for (let week = 0; week < WEEKS; week++) {
    const date = new Date(firstMonday + week * 7 * 86_400_000 + (week % 5) * 86_400_000).toISOString().slice(0, 10);
    for (const locationCode of LOCATION_CODES) {
      for (let p = 1; p <= PRODUCT_COUNT; p++) {
        const actual = (p * 7 + week * 3) % 200;
        rows.push({ sku: `BENCH-${String(p).padStart(6, '0')}`, locationCode, date, actualDemand: actual, forecastUnits: actual + (p % 5) });
      }
    }
  }
  return {
    kind: 'demand-history',
    rows,
    table: 'bench_copy_demand (sku text, location_code text, day date, actual_demand float8, forecast_units float8)',
    csv: toCsv(rows, ['sku', 'locationCode', 'date', 'actualDemand', 'forecastUnits']),
  };
}

/** Stock levels for the catalog rows' 100,000 new SKUs at the first import location (no target; run after the catalog). */
export function inventoryData(): ImportKindData {
  const rows = Array.from({ length: IMPORT_ROWS }, (_, i) => {
    const n = i + 1;
    return { sku: `IMP-${String(n).padStart(7, '0')}`, locationCode: LOCATION_CODES[0]!, onHand: (n % 500) + 5, reserved: n % 5, threshold: n % 20 };
  });
  return {
    kind: 'inventory',
    rows,
    table: 'bench_copy_inventory (sku text, location_code text, on_hand int, reserved int, threshold int)',
    csv: toCsv(rows, ['sku', 'locationCode', 'onHand', 'reserved', 'threshold']),
  };
}
