// Engine speed on the synthetic scale set (synthetic.ts), no database: ms per series in process and
// through ForecastWorkerPool, by demand kind. The quick loop for engine experiments:
//   npx tsx bench/forecasting/engine-speed.ts [--series N] [--profile DEFAULT|GENERATION] [--workers 1,2] [--horizon 13] [--niceness N|none] [--no-inprocess]
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { forecastSeries } from '../../src/services/forecasting/engine/forecast-series.js';
import { ForecastWorkerPool } from '../../src/services/forecasting/engine/worker-pool.js';
import type { ForecastOptions, ForecastProfile } from '../../src/services/forecasting/engine/types.js';
import { kindOf, syntheticSeries } from './synthetic.js';

export interface SpeedRow {
  mode: string; series: number; seconds: number; msPerSeries: number; seriesPerSecond: number;
  byKind?: Record<string, number>; methods?: Record<string, number>;
  /** Through the pool: how busy the calling thread's event loop was (0–1) and its longest stall, ms. */
  mainThread?: { utilization: number; maxDelayMs: number; p99DelayMs: number };
}

export function inProcessSpeed(count: number, options: ForecastOptions): SpeedRow {
  const series = syntheticSeries(count);
  const byKindMs: Record<string, number> = {};
  const byKindN: Record<string, number> = {};
  const methods: Record<string, number> = {};
  const started = performance.now();
  series.forEach((s, i) => {
    const t = performance.now();
    const result = forecastSeries(s, options);
    const kind = kindOf(i);
    byKindMs[kind] = (byKindMs[kind] ?? 0) + performance.now() - t;
    byKindN[kind] = (byKindN[kind] ?? 0) + 1;
    methods[result.method] = (methods[result.method] ?? 0) + 1;
  });
  const seconds = (performance.now() - started) / 1000;
  const byKind = Object.fromEntries(Object.keys(byKindMs).map((k) => [k, byKindMs[k]! / byKindN[k]!]));
  return { mode: `in process, ${options.profile ?? 'DEFAULT'} profile`, series: count, seconds, msPerSeries: (seconds * 1000) / count, seriesPerSecond: count / seconds, byKind, methods };
}

export async function poolSpeed(count: number, workers: number, options: ForecastOptions, niceness?: number | null): Promise<SpeedRow> {
  const series = syntheticSeries(count);
  const pool = new ForecastWorkerPool({ size: workers, ...(niceness !== undefined ? { niceness } : {}) });
  try {
    await pool.forecastBatch(series.slice(0, workers), options); // start-up (WASM, tsx) not timed
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const elu = performance.eventLoopUtilization();
    const started = performance.now();
    await pool.forecastBatch(series, options);
    const seconds = (performance.now() - started) / 1000;
    delay.disable();
    const utilization = performance.eventLoopUtilization(elu).utilization;
    const mainThread = { utilization, maxDelayMs: delay.max / 1e6, p99DelayMs: delay.percentile(99) / 1e6 };
    return { mode: `pool of ${workers} worker(s), ${options.profile ?? 'DEFAULT'} profile`, series: count, seconds, msPerSeries: (seconds * 1000) / count, seriesPerSecond: count / seconds, mainThread };
  } finally {
    await pool.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { series: { type: 'string', default: '1000' }, workers: { type: 'string', default: '1,2' }, horizon: { type: 'string', default: '13' }, origins: { type: 'string' }, profile: { type: 'string' }, 'no-inprocess': { type: 'boolean', default: false }, niceness: { type: 'string' } } });
  const options: ForecastOptions = { horizon: Number(values.horizon), ...(values.origins ? { backtestOrigins: Number(values.origins) } : {}), ...(values.profile ? { profile: values.profile as ForecastProfile } : {}) };
  const count = Number(values.series);
  const rows: SpeedRow[] = [];
  if (!values['no-inprocess']) rows.push(inProcessSpeed(count, options));
  const niceness = values.niceness === undefined ? undefined : values.niceness === 'none' ? null : Number(values.niceness);
  for (const w of values.workers.split(',').filter(Boolean)) rows.push(await poolSpeed(count, Number(w), options, niceness));
  for (const r of rows) {
    console.log(`${r.mode.padEnd(40)} ${r.series} series  ${r.seconds.toFixed(1)} s  ${r.msPerSeries.toFixed(2)} ms/series  ${r.seriesPerSecond.toFixed(0)} series/s`);
    if (r.byKind) console.log('  ms/series by kind:', Object.fromEntries(Object.entries(r.byKind).map(([k, v]) => [k, Number(v.toFixed(2))])));
    if (r.methods) console.log('  methods:', r.methods);
    if (r.mainThread) console.log(`  calling thread: event loop ${(100 * r.mainThread.utilization).toFixed(0)}% busy, delay p99 ${r.mainThread.p99DelayMs.toFixed(1)} ms, max ${r.mainThread.maxDelayMs.toFixed(1)} ms`);
  }
}
