// The planning part's table, verdict and BENCHMARKS.md section (--planning).
import { cells, machineLine, sectionStamp, type Machine, type Row } from '../harness/report.js';
import type { PlanningResult } from './bench-planning.js';
import { BARE, P99_GOAL_MS, RECOMMENDATIONS_CONNECTIONS } from './recommendations/bench-recommendations.js';
import { WIDGET_P99_GOAL_MS } from '../dashboard/inventory-summary/bench-widget.js';

const HEAD = ['Backend', 'Target', 'Conn.', 'Requests/s', 'p50 (ms)', 'p99 (ms)', 'Errors / non-2xx', 'vs bare', 'CPU ms/req: Node', 'CPU ms/req: PostgreSQL', 'Other work', 'Goal'];

const errors = (row: Row) => row.result.errors + row.result.timeouts + row.result.non2xx;
const meets = (row: Row) => row.result.p99 < P99_GOAL_MS && errors(row) === 0;
const isService = (row: Row) => !row.target.startsWith(BARE);

function rowCells(row: Row): string[] {
  const [backend = '', target = '', ...measured] = cells(row);
  const goal = isService(row) ? `p99 < ${P99_GOAL_MS} ms: ${meets(row) ? 'met' : 'NOT met'}` : '';
  return [backend, target, String(row.connections ?? ''), ...measured, goal];
}

const right = (i: number) => i >= 2 && i < HEAD.length - 1;

export function planningTextTable(result: PlanningResult): string {
  const all = [HEAD, ...result.rows.map(rowCells)];
  const widths = HEAD.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((c, i) => (right(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

function markdownTable(result: PlanningResult): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [line(HEAD), line(HEAD.map((_, i) => (right(i) ? '---:' : '---'))), ...result.rows.map((r) => line(rowCells(r)))].join('\n');
}

function widgetLines(result: PlanningResult): string[] {
  const w = result.widget;
  if (!w) return [];
  const met = w.service.p99 < WIDGET_P99_GOAL_MS;
  return [
    `Goal: inventory-summary widget asOf over ${w.ledgerRows.toLocaleString('en')} ledger rows, p99 under ${WIDGET_P99_GOAL_MS} ms on PostgreSQL: ${met ? 'met' : 'NOT met'} ` +
      `(service p50 ${w.service.p50} ms, p99 ${w.service.p99} ms over ${w.service.requests} sequential requests; the same SQL bare through pg p50 ${w.bare.p50} ms, p99 ${w.bare.p99} ms; ` +
      `the service at ${w.ratioP50} × the bare time at p50, ${w.ratioP99} × at p99).`,
  ];
}

export function planningVerdict(result: PlanningResult): string[] {
  const lines = result.checks.map((c) => `${c.ok ? 'ok' : 'FAILED'}: ${c.backend}, ${c.name} (${c.detail}).`);
  lines.push(...widgetLines(result));
  const measured = result.rows.filter((r) => r.backend === 'PostgreSQL' && isService(r));
  if (!measured.length) return [...lines, `Goal (p99 under ${P99_GOAL_MS} ms on PostgreSQL): not measured.`];
  for (const row of measured) {
    const bare = result.rows.find((r) => r.backend === row.backend && r.target === `${BARE}${row.target}` && r.connections === row.connections);
    lines.push(
      `Goal: ${row.target} p99 under ${P99_GOAL_MS} ms at ${row.connections} connection${row.connections === 1 ? '' : 's'} on PostgreSQL: ${meets(row) ? 'met' : 'NOT met'} ` +
        `(p99 ${row.result.p99} ms, ${errors(row)} errors / non-2xx` +
        (bare ? `; bare server p99 ${bare.result.p99} ms, the service at ${row.ratio?.toFixed(2)} × its requests/s)` : ')') +
        '.',
    );
  }
  return lines;
}

export function planningSection(date: Date, machine: Machine, settings: { mode: string; duration: number; warmup: number; rounds: number }, result: PlanningResult): string {
  const loaded = result.setups.map(
    ({ backend, data, loadSeconds, answered }) =>
      `${backend}: ${data.loaded.levels.toLocaleString('en')} levels and stock lines, ${data.loaded.demandRows.toLocaleString('en')} demand history rows, ` +
      `${data.loaded.poLines.toLocaleString('en')} purchase order lines, loaded in ${loadSeconds.toFixed(0)} s; ${answered.toLocaleString('en')} recommendations per answer.`,
  );
  return [
    `## ${sectionStamp(date)} UTC, planning (${settings.mode})`,
    '',
    '`npm run bench -- --planning` (issue 21; bench/planning/): PostgreSQL only. **Recommendations** (bench/planning/recommendations/): one location ' +
      'of 10,000 products, each with an inventory level (demand 1–10 a day, reorder point 10 days of it, maximum 60, lead time 7–20 days), one stock ' +
      'line, 8 weeks of demand history (a planner\'s number on 1 in 7), open purchase orders for 1,000 products, an in-transit transfer, backorders, ' +
      'and a second location with surplus for 250; 1,000 products need action (500 EXPEDITE, 250 MOVE, 250 ORDER). Loaded set-based, then VACUUM ANALYZE; ' +
      'the service must answer those actions before anything is measured. `GET /api/planning/recommendations?locationId=…` (the whole answer, ' +
      'every time) against the **bare node:http** yardstick (bench/planning/recommendations/bare-recommendations.ts, `pg` pool of 10), which runs the ' +
      "statement the service's own `recommendationSql` builds after the same API-key and location checks; their answers are compared body for body. " +
      `${settings.duration} s per target after a ${settings.warmup} s warm-up${settings.rounds > 1 ? `, best of ${settings.rounds} rounds` : ''}, ` +
      `at ${RECOMMENDATIONS_CONNECTIONS.join(' and ')} connections (one planner at a time is how the goal is read, as for the widget; four at once shows ` +
      'how the answer holds under concurrent readers on 2 cores). "vs bare" is requests/s over the bare server\'s at the same connections.',
    '',
    machineLine(machine),
    '',
    ...loaded,
    ...(result.widget
      ? [
          `PostgreSQL, widget: ${result.widget.ledgerRows.toLocaleString('en')} ledger rows on ${result.widget.lines.toLocaleString('en')} stock lines loaded in ${result.widget.loadSeconds.toFixed(0)} s, ` +
            `${result.widget.snapshots} snapshots taken in ${result.widget.snapshotSeconds.toFixed(0)} s. **Widget** (bench/dashboard/inventory-summary/): ` +
            '`GET /api/dashboard/widgets/inventory-summary?locationId=…&asOf=…` at moments spread over the ledger\'s year, one request at a time, against the ' +
            "statement the service runs, executed bare through `pg` with the same parameters; answers checked against a full read of the ledger first.",
        ]
      : []),
    '',
    markdownTable(result),
    '',
    ...planningVerdict(result).map((line) => `- ${line}`),
    ...(result.notes.length ? ['', ...result.notes] : []),
    '',
  ].join('\n');
}
