// The inventory part's table, goals and BENCHMARKS.md section.
import type { AdjustCheck } from './lost-update-check.js';
import { TARGETS } from './bench-inventory.js';
import { cells, machineLine, sectionStamp, type Machine, type Row } from '../harness/report.js';

/** Issue 3's goals, on PostgreSQL; the channel-location page's is issue 25's (the bare server's row shows whether the machine can). */
export const GOALS = { checkP99Ms: 50, adjustPerSec: 1000, pageP99Ms: 200 };

export interface BackendChecks {
  backend: string;
  checks: { label: string; covers: string[]; check: AdjustCheck }[];
}

const fmt = (n: number) => n.toLocaleString('en');

function goal(row: Row, checks: BackendChecks[]): string {
  const r = row.result;
  const clean = r.errors + r.timeouts + r.non2xx === 0;
  if ([TARGETS.check, TARGETS.check16, TARGETS.check8, TARGETS.checkSerial].includes(row.target)) {
    return `p99 < ${GOALS.checkP99Ms} ms: ${r.p99 < GOALS.checkP99Ms && clean ? 'met' : 'NOT met'}`;
  }
  if (row.target === TARGETS.page || row.target === TARGETS.barePage) {
    return `p99 < ${GOALS.pageP99Ms} ms: ${r.p99 < GOALS.pageP99Ms && clean ? 'met' : 'NOT met'}`;
  }
  const check = checks.find((c) => c.backend === row.backend)?.checks.find((c) => c.covers.includes(row.target))?.check;
  const lost = check ? (check.ok ? 'no lost updates' : 'LOST UPDATES') : '';
  if (row.target === TARGETS.across) {
    return `≥ ${fmt(GOALS.adjustPerSec)}/s: ${r.requestsPerSec >= GOALS.adjustPerSec && clean ? 'met' : 'NOT met'}; ${lost}`;
  }
  return lost;
}

const HEAD = ['Backend', 'Target', 'Conn.', 'Requests/s', 'p50 (ms)', 'p99 (ms)', 'Errors / non-2xx', 'vs bare', 'CPU ms/req: Node', 'CPU ms/req: PostgreSQL', 'Other work', 'Goal'];

function inventoryCells(row: Row, checks: BackendChecks[]): string[] {
  const [backend = '', target = '', ...measured] = cells(row);
  return [backend, target, String(row.connections ?? ''), ...measured, goal(row, checks)];
}

export function inventoryTextTable(rows: Row[], checks: BackendChecks[]): string {
  const all = [HEAD, ...rows.map((row) => inventoryCells(row, checks))];
  const widths = HEAD.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const right = (i: number) => i >= 2 && i < HEAD.length - 1;
  return all.map((r) => r.map((c, i) => (right(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

function markdownTable(rows: Row[], checks: BackendChecks[]): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  const align = HEAD.map((_, i) => (i >= 2 && i < HEAD.length - 1 ? '---:' : '---'));
  return [line(HEAD), line(align), ...rows.map((r) => line(inventoryCells(r, checks)))].join('\n');
}

/** The goals of issue 3 on PostgreSQL, one line each. */
export function inventoryVerdict(rows: Row[], checks: BackendChecks[]): string[] {
  const pg = (target: string) => rows.find((r) => r.backend === 'PostgreSQL' && r.target === target);
  const check = pg(TARGETS.check);
  const across = pg(TARGETS.across);
  if (!check || !across) return ['Goals (PostgreSQL): not measured (no PostgreSQL).'];
  const lost = checks.find((c) => c.backend === 'PostgreSQL')?.checks ?? [];
  const allClean = lost.length > 0 && lost.every((c) => c.check.ok);
  const errors = (row: Row) => row.result.errors + row.result.timeouts + row.result.non2xx;
  const meets = (row: Row) => row.result.p99 < GOALS.checkP99Ms && !errors(row);
  const lower = [TARGETS.check16, TARGETS.check8, TARGETS.checkSerial]
    .map(pg)
    .filter((row): row is Row => Boolean(row))
    .map((row) => `${meets(row) ? 'met' : 'NOT met'} at ${row.connections === 1 ? 'one request at a time' : `${row.connections} connections`} (p99 ${row.result.p99} ms)`);
  return [
    `Goal: availability check p99 under ${GOALS.checkP99Ms} ms on PostgreSQL: ${meets(check) ? 'met' : 'NOT met'} under ${check.connections} connections ` +
      `(p99 ${check.result.p99} ms, ${errors(check)} errors / non-2xx)` +
      (lower.length ? `; ${lower.join('; ')}.` : '.'),
    `Goal: at least ${fmt(GOALS.adjustPerSec)} adjustments/s across lines on PostgreSQL: ` +
      `${across.result.requestsPerSec >= GOALS.adjustPerSec && !errors(across) ? 'met' : 'NOT met'} (${across.result.requestsPerSec.toFixed(0)}/s, ` +
      `${errors(across)} errors / non-2xx).`,
    `Goal: zero lost updates on PostgreSQL: ${allClean ? 'met' : 'NOT met'}.`,
    ...pageVerdict(pg(TARGETS.page), pg(TARGETS.barePage)),
  ];
}

/** Issue 25's goal for the channel-location page, beside what the bare server doing the same work reaches. */
function pageVerdict(page: Row | undefined, bare: Row | undefined): string[] {
  if (!page) return [];
  const errors = page.result.errors + page.result.timeouts + page.result.non2xx;
  const yardstick = bare ? `; the bare server with the same statements and the same JSON: p99 ${bare.result.p99} ms at ${bare.result.requestsPerSec.toFixed(0)}/s` : '';
  return [
    `Goal: channel-location page (${page.connections} connections) p99 under ${GOALS.pageP99Ms} ms on PostgreSQL: ` +
      `${page.result.p99 < GOALS.pageP99Ms && !errors ? 'met' : 'NOT met'} (p99 ${page.result.p99} ms at ${page.result.requestsPerSec.toFixed(0)}/s, ${errors} errors / non-2xx${yardstick}).`,
  ];
}

export interface InventorySettings {
  mode: string;
  duration: number;
  warmup: number;
  rounds: number;
}

export function inventorySection(date: Date, machine: Machine, settings: InventorySettings, rows: Row[], checks: BackendChecks[], notes: string[]): string {
  const checkLines = checks.flatMap(({ backend, checks: list }) =>
    list.map(({ label, check }) => `- ${backend}, ${label}: ${check.ok ? 'OK' : '**FAILED**'}: ${check.summary}.`),
  );
  return [
    `## ${sectionStamp(date)} UTC, inventory (${settings.mode})`,
    '',
    `${settings.duration} s per target after a ${settings.warmup} s warm-up` +
      (settings.rounds > 1 ? `, best of ${settings.rounds} rounds` : '') +
      '; 10,000 products × 5 locations, one lot and one stock line per product and location (50,000 lines), 3 channels with a policy at every location.',
    '',
    machineLine(machine),
    '',
    markdownTable(rows, checks),
    '',
    ...inventoryVerdict(rows, checks).map((line) => `- ${line}`),
    '',
    'Lost-update check of every adjustment the runs wrote (warm-up and all rounds included):',
    '',
    ...checkLines,
    ...notes.map((n) => `\n${n}`),
    '',
  ].join('\n');
}
