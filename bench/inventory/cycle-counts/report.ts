// The warehouse part's table, verdict and BENCHMARKS.md section (--warehouse).
import { cells, machineLine, sectionStamp, type Machine, type Row } from '../../harness/report.js';
import { BARE, P99_GOAL_MS, WAREHOUSE_CONNECTIONS, WARM_UP_SECONDS, type WarehouseResult } from './bench-warehouse.js';

const HEAD = ['Backend', 'Target', 'Conn.', 'Requests/s', 'p50 (ms)', 'p99 (ms)', 'Errors / non-2xx', 'vs bare', 'CPU ms/req: Node', 'CPU ms/req: PostgreSQL', 'Other work', 'Goal'];

const errors = (row: Row) => row.result.errors + row.result.timeouts + row.result.non2xx;
const meets = (row: Row) => row.result.p99 < P99_GOAL_MS && errors(row) === 0;
const isService = (row: Row) => !row.target.startsWith(BARE);

function rowCells(row: Row): string[] {
  const [backend = '', target = '', ...measured] = cells(row);
  const goal = isService(row) ? `p99 < ${P99_GOAL_MS} ms: ${meets(row) ? 'met' : 'NOT met'}${row.backend === 'PGlite' ? ' (not judged)' : ''}` : '';
  return [backend, target, String(row.connections ?? ''), ...measured, goal];
}

const right = (i: number) => i >= 2 && i < HEAD.length - 1;

export function warehouseTextTable(result: WarehouseResult): string {
  const all = [HEAD, ...result.rows.map(rowCells)];
  const widths = HEAD.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((c, i) => (right(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

function markdownTable(result: WarehouseResult): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [line(HEAD), line(HEAD.map((_, i) => (right(i) ? '---:' : '---'))), ...result.rows.map((r) => line(rowCells(r)))].join('\n');
}

/** The set-up checks, then the goal on PostgreSQL per view, with the bare server's p99 beside it. */
export function warehouseVerdict(result: WarehouseResult): string[] {
  const lines = result.checks.map((c) => `${c.ok ? 'ok' : 'FAILED'}: ${c.backend}, ${c.name} (${c.detail}).`);
  const pg = result.rows.filter((r) => r.backend === 'PostgreSQL' && isService(r));
  if (!pg.length) return [...lines, `Goal (p99 under ${P99_GOAL_MS} ms at ${WAREHOUSE_CONNECTIONS} connections on PostgreSQL): not measured (no PostgreSQL).`];
  for (const row of pg) {
    const bare = result.rows.find((r) => r.backend === row.backend && r.target === `${BARE}${row.target}`);
    lines.push(
      `Goal: ${row.target} p99 under ${P99_GOAL_MS} ms at ${row.connections} connections on PostgreSQL: ${meets(row) ? 'met' : 'NOT met'} ` +
        `(p99 ${row.result.p99} ms, ${errors(row)} errors / non-2xx` +
        (bare ? `; bare server p99 ${bare.result.p99} ms, the service at ${row.ratio?.toFixed(2)} × its requests/s)` : ')') +
        '.',
    );
  }
  return lines;
}

export interface WarehouseSettings {
  mode: string;
  duration: number;
  warmup: number;
  rounds: number;
  pgliteConnections: number;
}

export function warehouseSection(date: Date, machine: Machine, settings: WarehouseSettings, result: WarehouseResult): string {
  const loaded = result.setups.map(
    ({ backend, data, loadSeconds }) =>
      `${backend}: ${data.loaded.stockLines.toLocaleString('en')} stock lines, ${data.loaded.lots.toLocaleString('en')} lots, ${data.loaded.bins} bins, ` +
      `${data.loaded.batches} batches with ${data.loaded.countLines.toLocaleString('en')} count lines, loaded in ${loadSeconds.toFixed(0)} s; ` +
      `${data.expected.overdue.toLocaleString('en')} of ${data.expected.products.toLocaleString('en')} products overdue, ${data.expected.toResolve.toLocaleString('en')} lines to resolve.`,
  );
  return [
    `## ${sectionStamp(date)} UTC, warehouse cycle counts (${settings.mode})`,
    '',
    `\`npm run bench -- --warehouse\` (issue 20; bench/inventory/cycle-counts/): one organization, one warehouse location with 10,000 products, ` +
      '400 bins, 3 lots a product and 5 stock lines a product (50,000 lines), an ABC configuration (70/20/10 %, every 30/60/120 days) and an inventory ' +
      'level per product (10% A, 20% B, 65% C, 5% unclassified; 1 in 37 never counted, the others last counted up to 1.25 × their frequency ago), and a year ' +
      'of cycle counts: 80 batches of 625 lines (60 old ones resolved, 10 completed with variances waiting, 8 in progress about half counted, 2 cancelled), ' +
      'about 30% of the counted lines off by 1–9 units. Loaded with set-based SQL (bench/inventory/cycle-counts/data.ts, not timed), then VACUUM ANALYZE; ' +
      'before measuring, the service must answer the counts the data implies (checks below). Every request differs (a random page, or search term): ' +
      `\`GET /api/inventory/cycle-count?locationId=…&limit=50&page=N\` (all-products), the same with \`showOverdueOnly=true\` or \`search=DDD\` (three ` +
      'random digits, page 1), and `?mode=to-resolve&locationId=…&limit=50&page=N`. The **bare node:http** yardstick (bench/inventory/cycle-counts/bare-cycle-counts.ts, ' +
      'served by bench/harness/bare-server.ts with `pg`, pool of 10) runs the same SQL in the same order: API key, location owner check, ABC configuration, ' +
      'then the counts and the page (a search: one statement of page and totals; to-resolve: its one statement), built by the service\'s own SQL builders; its answers are compared body for body with the service\'s. ' +
      `Each fresh server (service and bare alike) first serves every view for ${WARM_UP_SECONDS} s, not measured (V8 compiles the service's code over its first few thousand requests); then ` +
      `${settings.duration} s per target after a ${settings.warmup} s warm-up${settings.rounds > 1 ? `, best of ${settings.rounds} rounds (by requests/s)` : ''}, ` +
      `${WAREHOUSE_CONNECTIONS} connections on PostgreSQL, ${settings.pgliteConnections} on PGlite (reported, not judged). "vs bare" is requests/s over the bare server's. ` +
      'Other work on this 2-core machine is reported per target ("Other work").',
    '',
    machineLine(machine),
    '',
    ...loaded,
    '',
    markdownTable(result),
    '',
    ...warehouseVerdict(result).map((line) => `- ${line}`),
    ...(result.notes.length ? ['', ...result.notes] : []),
    '',
  ].join('\n');
}
