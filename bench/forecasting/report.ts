// The forecast accuracy part of `npm run bench` (--forecast): the table it prints and its BENCHMARKS.md section.
import { type Machine, machineLine, sectionStamp } from '../harness/report.js';
import { HOLDOUT, type Score } from './accuracy.js';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const cells = (s: Score) => [s.name, s.mase.toFixed(3), pct(s.wape), pct(s.bias), pct(s.coverage80), pct(s.coverage95), s.msPerSeries.toFixed(0)];
const HEAD = ['method', 'mean MASE', 'WAPE', 'bias', '80% coverage', '95% coverage', 'ms per series'];

/** Targets of issue 11 for the engine: mean MASE at most 0.55, 80% coverage within 0.75 to 0.85. */
export function forecastVerdict(scores: Score[]): string[] {
  const engine = scores[0]!;
  return [
    `engine mean MASE ${engine.mase.toFixed(3)} (target ≤ 0.55): ${engine.mase <= 0.55 ? 'met' : 'NOT met'}`,
    `engine 80% coverage ${pct(engine.coverage80)} (target 75–85%): ${engine.coverage80 >= 0.75 && engine.coverage80 <= 0.85 ? 'met' : 'NOT met'}`,
  ];
}

export function forecastTextTable(scores: Score[]): string {
  const rows = [HEAD, ...scores.map(cells)];
  const widths = HEAD.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

export function forecastSection(date: Date, machine: Machine, scores: Score[]): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  const methods = scores[0]!.methods ? Object.entries(scores[0]!.methods).map(([m, n]) => `${m} ${n}`).join(', ') : '';
  return [
    `## ${sectionStamp(date)} UTC, forecast accuracy`,
    '',
    `Forecast accuracy (issue 11, bench/forecasting/): the 45 Walmart store series of ../shared/data (weekly sales, 143 weeks), ` +
      `the last ${HOLDOUT} weeks of each held out and forecast from the earlier weeks only, by the engine in process ` +
      '(src/services/forecasting/engine/, not yet through GET /api/forecast). MASE is scaled by the in-sample seasonal-naive (52) MAE; ' +
      'WAPE and bias are over all held-out weeks; coverage is the share of held-out weeks inside the interval. Seasonal naive uses ' +
      "the engine's conformal intervals; augurs MSTL its own. Targets: engine mean MASE ≤ 0.55, 80% coverage 0.75–0.85.",
    '',
    line(HEAD),
    line(HEAD.map(() => '---')),
    ...scores.map((s) => line(cells(s))),
    '',
    ...forecastVerdict(scores).map((v) => `- ${v}`),
    ...(methods ? [`- Engine methods chosen: ${methods}.`] : []),
    '',
    machineLine(machine),
    '',
  ].join('\n');
}
