// The scale part's table, verdict and BENCHMARKS.md section (--scale).
import { alignedTable, machineLine, sectionStamp, type Machine } from '../harness/report.js';
import { SCALE_CONNECTIONS, type ScaleListResult, type ScaleRow } from './bench-scale.js';

const HEAD = ['Target', 'Products', 'Requests/s', 'p50 (ms)', 'p99 (ms)', 'Errors / non-2xx', 'CPU ms/req: Node', 'CPU ms/req: PostgreSQL', 'Other work'];
const cellsOf = (r: ScaleRow) => [
  r.target,
  r.products.toLocaleString('en-US'),
  r.result.requestsPerSec.toFixed(0),
  String(r.result.p50),
  String(r.result.p99),
  `${r.result.errors + r.result.timeouts} / ${r.result.non2xx}`,
  r.cpu ? r.cpu.serverMs.toFixed(2) : '',
  r.cpu ? r.cpu.databaseMs.toFixed(2) : '',
  `${(r.otherShare * 100).toFixed(0)}%`,
];

export function scaleListTextTable(result: ScaleListResult): string {
  return alignedTable(HEAD, result.rows.map(cellsOf), 1);
}

/** Per target: the highest p99 of any size ÷ p99 at the smallest, against the goal (within 20%). */
export function scaleListVerdict(result: ScaleListResult): string[] {
  const lines: string[] = [];
  for (const target of [...new Set(result.rows.map((r) => r.target))]) {
    const rows = result.rows.filter((r) => r.target === target).sort((a, b) => a.products - b.products);
    if (rows.length < 2) continue;
    const small = rows[0]!;
    const ratio = Math.max(...rows.map((r) => r.result.p99)) / Math.max(1, small.result.p99);
    const clean = rows.every((r) => r.result.errors + r.result.timeouts + r.result.non2xx === 0);
    lines.push(
      `${target}: p99 ${rows.map((r) => `${r.result.p99} ms`).join(' → ')} (${rows.map((r) => r.products.toLocaleString('en-US')).join(' → ')} products), ` +
        `the highest ${ratio.toFixed(2)}× the smallest: flat within 20% ${ratio <= 1.2 && clean ? 'met' : 'NOT met'}${clean ? '' : ' (errors)'}.`,
    );
  }
  return lines;
}

export function scaleListSection(date: Date, machine: Machine, settings: { mode: string; duration: number; warmup: number }, result: ScaleListResult): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  const loads = Object.entries(result.loadSeconds).map(([n, s]) => `${Number(n).toLocaleString('en-US')} products in ${s} s`).join(', ');
  return [
    `## ${sectionStamp(date)} UTC, list scale (${settings.mode})`,
    '',
    '`npm run bench -- --scale` (issue 25; bench/row-counts/): PostgreSQL only. Each size in its own scratch database: one organization, N products ' +
      'and 5 locations with a stock line of every product (5 N lines), loaded with SQL and analyzed, their ids time-ordered as the service writes ' +
      'them (UUID v7; random v4 ids until the run of 2026-11-29 07:22, which scattered a page\'s rows over as many heap pages as it has rows). Served by the service at ' +
      `${SCALE_CONNECTIONS} connections, ${settings.duration} s after a ${settings.warmup} s warm-up per target; every size is loaded (and its server ` +
      'started) first, then each target runs at every size in order and again in reverse, and the lower p99 of the two is kept (since ' +
      '2026-11-29 13:10; before, the sizes ran one after another, so a machine slowing down during the run read as growth). Each request a random one of the ' +
      'same 20 pages (or one of 500 SKUs spread over the catalog) at every size, so a larger catalog is not deeper paging. Totals are exact at ' +
      `every size (docs/lists.md). Loaded: ${loads}.`,
    '',
    machineLine(machine),
    '',
    line(HEAD),
    line(HEAD.map((_, i) => (i >= 1 ? '---:' : '---'))),
    ...result.rows.map((r) => line(cellsOf(r))),
    '',
    ...scaleListVerdict(result).map((l) => `- ${l}`),
    ...(result.notes.length ? ['', ...result.notes] : []),
    '',
  ].join('\n');
}
