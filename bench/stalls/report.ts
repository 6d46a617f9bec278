// The stall part's table and its BENCHMARKS.md section.
import { machineLine, type Machine, sectionStamp } from '../harness/report.js';
import { STALL_GOAL_MS, type StallResult } from './bench-stalls.js';

const HEAD = ['Backend', 'Request', 'Status', 'Request (ms)', 'Worst /health (ms)', 'vs idle /health', 'Loop block (ms)', `Under ${STALL_GOAL_MS} ms`];

function cellsOf(result: StallResult) {
  return result.rows.map((r) => [
    result.backend,
    r.name,
    String(r.status),
    r.requestMs.toFixed(0),
    r.worstHealthMs.toFixed(0),
    `${(r.worstHealthMs / Math.max(1, result.idle.max)).toFixed(1)}×`,
    Number.isFinite(r.loopBlockMs) ? r.loopBlockMs.toFixed(0) : '—',
    r.worstHealthMs < STALL_GOAL_MS ? 'yes' : 'NO',
  ]);
}

export function stallsTextTable(results: StallResult[]): string {
  const rows = [HEAD, ...results.flatMap(cellsOf)];
  const widths = HEAD.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
}

export function stallsVerdict(results: StallResult[]): string[] {
  return results.map((r) => {
    const worst = r.rows.reduce((w, row) => (row.worstHealthMs > w.worstHealthMs ? row : w), r.rows[0]!);
    const block = Math.max(...r.rows.map((row) => row.loopBlockMs));
    return `${r.backend}: worst /health ${worst.worstHealthMs.toFixed(0)} ms (${worst.name}), longest event-loop block ${block.toFixed(0)} ms: ${worst.worstHealthMs < STALL_GOAL_MS ? 'goal met' : `goal (${STALL_GOAL_MS} ms) missed`}`;
  });
}

export function stallsSection(date: Date, machine: Machine, results: StallResult[]): string {
  return [
    `## ${sectionStamp(date)} UTC, stalls (\`--stalls\`)`,
    '',
    'Each request alone against the service (its own process, defaults, no forecast-run loop) while the bench asks ' +
      '`GET /health` every 20 ms: the slowest `/health` while it ran (what every other tenant waited), against the idle ' +
      '`/health` before the first request (the yardstick), and the server\'s longest event-loop block ' +
      '(`monitorEventLoopDelay`, preloaded bench/forecasting/memory-sampler.mjs). Data: defect 1 (five series whose two records are ' +
      '1900-01-01 and 9990-01-01), defect 2 (ten events 1900–9999 without a lift), 100 products × 2 channels × 520 weeks with ' +
      '500 one-week events for the largest forecasting pages, and for the other areas the data of their own benchmarks (10,000 ' +
      'products, 150,000 stock lines over 15 locations, 100,000 inventory levels). The last rows upload the largest import ' +
      '(100,000 catalog rows) and then wait, still probing, until the import worker has applied it. Goal: every `/health` under ' +
      '500 ms. Each forecasting path is called once first (not measured); requests abandoned after 60 s.',
    '',
    machineLine(machine),
    '',
    ...results.map((r) => `${r.backend}: idle /health p50 ${r.idle.p50.toFixed(1)} ms, max ${r.idle.max.toFixed(1)} ms; data loaded in ${r.setupSeconds.toFixed(1)} s.`),
    '',
    `| ${HEAD.join(' | ')} |`,
    `|${HEAD.map(() => '---').join('|')}|`,
    ...results.flatMap(cellsOf).map((c) => `| ${c.join(' | ')} |`),
    '',
    ...stallsVerdict(results).map((v) => `- ${v}`),
    '',
  ].join('\n');
}
