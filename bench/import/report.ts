// The import part's summary table, verdict and BENCHMARKS.md section.
import type { ImportResult } from './bench-import.js';
import { IMPORT_ROWS, LOADER_BATCH, LOADER_POLL_MS } from './data.js';
import { machineLine, sectionStamp, type Machine } from '../harness/report.js';

export const IMPORT_RATE_TARGET = 20_000;
export const IMPORT_P99_TARGET = 100;

const HEAD = ['Backend', 'Kind', 'Rows/s', 'Seconds', 'POSTs (s)', 'Poll wait (s)', 'Rejected / failed', 'Probe requests', 'Probe p50 (ms)', 'Probe p99 (ms)', 'CPU s: Node', 'CPU s: PostgreSQL', 'Other work', 'Bare COPY rows/s', 'Set-based floor rows/s', 'Import / COPY', 'Import / floor'];

function cells(r: ImportResult): string[] {
  return [
    r.backend,
    r.kind,
    (r.rows / r.seconds).toFixed(0),
    r.seconds.toFixed(2),
    (r.postMs / 1000).toFixed(2),
    (r.pollWaitMs / 1000).toFixed(2),
    `${r.rejected} / ${r.failed.length}`,
    String(r.probe.count),
    r.probe.p50.toFixed(1),
    r.probe.p99.toFixed(1),
    r.cpu.server.toFixed(1),
    r.backend === 'PGlite' ? 'in Node' : r.cpu.database.toFixed(1),
    `${(r.cpu.otherShare * 100).toFixed(0)}%`,
    r.copy ? (r.rows / r.copy.seconds).toFixed(0) : '',
    r.floor ? (r.rows / r.floor.seconds).toFixed(0) : '',
    r.copy ? `${(r.copy.seconds / r.seconds).toFixed(3)}×` : '',
    r.floor ? `${(r.floor.seconds / r.seconds).toFixed(2)}×` : '',
  ];
}

export function importTextTable(results: ImportResult[]): string {
  const all = [HEAD, ...results.map(cells)];
  const widths = HEAD.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

export function importVerdict(results: ImportResult[]): string[] {
  const pg = results.filter((r) => r.backend === 'PostgreSQL' && r.kind !== 'inventory');
  if (!pg.length) return ['Targets (PostgreSQL): not measured (no PostgreSQL).'];
  return pg.map((r) => {
    const rate = r.rows / r.seconds;
    const ok = rate >= IMPORT_RATE_TARGET && r.probe.p99 < IMPORT_P99_TARGET && !r.probe.bad && !r.failed.length && r.processed === r.rows;
    return (
      `Target ${r.kind} (PostgreSQL, ≥ ${IMPORT_RATE_TARGET.toLocaleString('en')} rows/s with GET /api/products p99 < ${IMPORT_P99_TARGET} ms): ` +
      `${ok ? 'met' : 'NOT met'} (${rate.toFixed(0)} rows/s, p99 ${r.probe.p99.toFixed(1)} ms${r.processed === r.rows ? '' : `, ${r.processed} of ${r.rows} rows processed`}` +
      `${r.probe.bad ? `, ${r.probe.bad} probe answers not 200` : ''}).`
    );
  });
}

export function importSection(date: Date, machine: Machine, mode: string, results: ImportResult[], notes: string[]): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  const copyMethods = [...new Set(results.flatMap((r) => (r.copy ? [`${r.backend}: ${r.copy.method}`] : [])))].join('; ');
  return [
    `## ${sectionStamp(date)} UTC, import (${mode})`,
    '',
    `Import method (issue 4, bench/import/): ${IMPORT_ROWS.toLocaleString('en')} catalog rows (new SKUs, 20 category names) and ` +
      `${IMPORT_ROWS.toLocaleString('en')} demand-history rows (the 10,000 products × 2 locations × 5 weeks), then, without a target, ` +
      `${IMPORT_ROWS.toLocaleString('en')} inventory rows (stock levels of the new SKUs at one location, written through the ledger), posted as the loader ` +
      `(src/cli/import.ts) posts them with \`--batch ${LOADER_BATCH}\`: ${LOADER_BATCH.toLocaleString('en')} rows per request (the most the API ` +
      `takes, so one request and one job per kind), the job's status asked every ${LOADER_POLL_MS} ms. Time runs from the first POST to the last job seen COMPLETED. The service ` +
      `runs as its own process with its defaults (two import workers on PostgreSQL, one on PGlite). Meanwhile a probe process (bench/import/latency-probe.ts) sends ` +
      '`GET /api/products?limit=50` with the API key, one request at a time, back to back (concurrency 1); p50/p99 are of the requests ' +
      'started during the import. "Bare COPY" loads the same rows as CSV into an unindexed scratch table of the same database ' +
      `(${copyMethods || 'not measured'}); "Import / COPY" is the import's rate as a share of it. "Set-based floor" (every kind, ` +
      'run before the service starts, rolled back, the tables vacuumed) COPYs the same rows into a temporary table and writes them into the real, ' +
      'indexed tables with INSERT … SELECT … ON CONFLICT (categories, SKUs and locations resolved in SQL; no per-row checks, locks, chunks or checkpoints; ' +
      "inventory: each new line with its quantities, a ledger row per non-zero bucket with the ledger's triggers, the level's minimum, after the catalog's floor " +
      'untimed in the same transaction): what the same rows cost PostgreSQL to write into these tables, their indexes and triggers kept; "Import / floor" is ' +
      "the import's rate as a share of it. CPU is of the server process and of the PostgreSQL backends of the scratch database; " +
      '"Other work" is the rest of the machine, the probe and the posting process included.',
    '',
    machineLine(machine),
    '',
    line(HEAD),
    line(HEAD.map((_, i) => (i >= 2 ? '---:' : '---'))),
    ...results.map((r) => line(cells(r))),
    '',
    ...importVerdict(results),
    ...notes.map((n) => `\n${n}`),
    '',
  ].join('\n');
}
