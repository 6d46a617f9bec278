// The forecast scale part of `npm run bench` (--forecast-scale): the table it prints and its BENCHMARKS.md section.
import { type Machine, machineLine, sectionStamp } from '../harness/report.js';
import type { ScaleResult } from './bench-scale.js';
import type { SpeedRow } from './engine-speed.js';

export interface ScaleResults {
  endToEnd: ScaleResult[];
  /** The engine alone on the same synthetic series, no database. */
  engine: SpeedRow[];
  notes: string[];
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const HEAD = ['backend', 'outcome', 'series', 'seconds', 'series/s', 'products p50 (ms)', 'p99 (ms)', 'max (ms)', 'probe requests', 'p99 before (ms)', 'longest stall (ms)', 'peak RSS (MiB)', 'peak heap (MiB)', 'CPU s: Node', 'CPU s: PostgreSQL', 'other work'];
const cells = (r: ScaleResult) => [
  r.backend, r.outcome === 'ok' ? 'COMPLETED' : r.outcome, r.run ? `${r.run.processedSeries}/${r.run.totalSeries}` : '–', r.run ? r.run.seconds.toFixed(1) : '–',
  r.run ? r.run.seriesPerSecond.toFixed(0) : '–', ms(r.during.p50), ms(r.during.p99), ms(r.during.max), String(r.during.count), ms(r.baseline.p99), ms(r.stalls.maxMs),
  r.memory.peakRssMiB.toFixed(0), r.memory.peakHeapMiB.toFixed(0), r.cpu.server.toFixed(1), r.backend === 'PostgreSQL' ? r.cpu.database.toFixed(1) : 'in Node', `${(r.cpu.otherShare * 100).toFixed(0)}%`,
];
const ENGINE_HEAD = ['engine (no database)', 'series', 'seconds', 'ms per series', 'series/s', 'calling thread busy', 'loop delay p99 / max (ms)'];
const engineCells = (r: SpeedRow) => [
  r.mode, String(r.series), r.seconds.toFixed(2), r.msPerSeries.toFixed(2), r.seriesPerSecond.toFixed(0),
  r.mainThread ? `${(100 * r.mainThread.utilization).toFixed(0)}%` : '100%', r.mainThread ? `${r.mainThread.p99DelayMs.toFixed(0)} / ${r.mainThread.maxDelayMs.toFixed(0)}` : '–',
];

/** Issue 11: 10,000 series × 104 weeks in ≤ 60 s on PostgreSQL with GET /api/products p99 < 100 ms meanwhile. */
export function scaleVerdict(r: ScaleResults): string[] {
  return r.endToEnd.map((e) => {
    if (!e.run || e.outcome !== 'ok') return `${e.backend}: end to end not measured (${e.outcome})`;
    const fast = e.run.seconds <= 60;
    const quiet = e.during.p99 < 100;
    const target = e.backend === 'PostgreSQL' ? `: ${fast && quiet ? 'met' : 'NOT met'}` : ' (reported, no target)';
    return `${e.backend}: ${e.run.processedSeries} series in ${e.run.seconds.toFixed(1)} s (target ≤ 60 s), GET /api/products p99 ${e.during.p99.toFixed(1)} ms (target < 100 ms)${target}`;
  });
}

function textRows(rows: string[][]) {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** The run's progress: processed series at about every tenth of its time. */
function progressLine(e: ScaleResult): string {
  const samples = e.run?.progress ?? [];
  if (!samples.length) return '';
  const step = Math.max(1, Math.floor(samples.length / 10));
  const picked = samples.filter((_, i) => i % step === 0 || i === samples.length - 1);
  return `${e.backend} progress (s → series): ${picked.map((p) => `${p.seconds.toFixed(1)} → ${p.processedSeries}`).join(', ')}`;
}

export function scaleTextTable(r: ScaleResults): string {
  return [
    ...(r.endToEnd.length ? [textRows([HEAD, ...r.endToEnd.map(cells)]), ...r.endToEnd.map(progressLine).filter(Boolean), ''] : []),
    textRows([ENGINE_HEAD, ...r.engine.map(engineCells)]),
  ].join('\n');
}

export function scaleSection(date: Date, machine: Machine, r: ScaleResults): string {
  const line = (row: string[]) => `| ${row.join(' | ')} |`;
  return [
    `## ${sectionStamp(date)} UTC, forecast generation at scale`,
    '',
    'Forecast scale (issue 11, bench/forecasting/bench-scale.ts): a fresh organization (capability ai.forecasting.demand) with 1,000 ' +
      'products × 10 locations = 10,000 series of 104 weeks of synthetic demand (bench/forecasting/synthetic.ts, seeded: 35% smooth ' +
      'seasonal, 15% trending, 10% erratic, 25% intermittent, 10% lumpy, 3% constant, 2% short), written by bulk SQL before the clock ' +
      'starts (not timed). A DRAFT scenario is created, then `POST /api/forecast/scenarios/{id}/generate` with horizon 13, and ' +
      '`GET /api/forecast/runs/{id}` every 250 ms until the run is COMPLETED: "seconds" runs from the POST to that poll (reading the ' +
      'history, fitting on the worker threads with the GENERATION profile, writing the run). Meanwhile the latency probe of the import ' +
      'part sends `GET /api/products?limit=50` one request at a time, back to back; "p99 before" is the same probe in the 5 s before the ' +
      'POST. The server runs as its own process with its defaults (FORECAST_WORKERS unset: one worker thread on 2 cores); peak RSS is of ' +
      'the whole process (worker threads included), peak heap of its main thread, sampled every 250 ms; "longest stall" is the ' +
      'longest the server\'s request thread could not run its event loop during the run (monitorEventLoopDelay). CPU is of the server process and ' +
      'of its PostgreSQL backends; "other work" is the rest of the machine (other helpers share it: the numbers are noisy). The engine ' +
      'rows fit the same series in the bench process without a database: in process (one thread) and through ForecastWorkerPool.',
    '',
    ...(r.endToEnd.length ? [line(HEAD), line(HEAD.map(() => '---')), ...r.endToEnd.map((e) => line(cells(e))), ''] : []),
    line(ENGINE_HEAD),
    line(ENGINE_HEAD.map(() => '---')),
    ...r.engine.map((e) => line(engineCells(e))),
    '',
    ...scaleVerdict(r).map((v) => `- ${v}`),
    ...r.endToEnd.map(progressLine).filter(Boolean).map((p) => `- ${p}`),
    ...r.endToEnd.map((e) => `- ${e.backend}: machine load average ${e.loadAverage[0].toFixed(1)} when the run was asked for, ${e.loadAverage[1].toFixed(1)} when it ended (2 cores).`),
    ...r.endToEnd.map((e) => `- ${e.backend} setup: ${e.setup.rows} history rows of ${e.setup.series} series in ${e.setup.seconds.toFixed(0)} s (bulk SQL, not timed).`),
    ...r.notes.map((n) => `- ${n}`),
    '',
    machineLine(machine),
    '',
  ].join('\n');
}
