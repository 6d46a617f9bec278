// Forecast accuracy on real data: the 45 Walmart store series of ../shared/data (see its README), the
// last 13 weeks of each held out. Every method forecasts them from the earlier weeks only; reported
// side by side: our engine, seasonal naive (52) with the engine's conformal intervals, and augurs'
// MSTL with its defaults and its own intervals. `npm run bench -- --forecast` adds the engine through
// GET /api/forecast (through-api.ts); this file alone is the quick in-process loop for experiments:
// npx tsx bench/forecasting/accuracy.ts
//   --methods A,B   restrict the engine's candidates (for experiments)
//   --origins N     backtest origins of the engine (default the engine's)
//   --profile P     the engine's profile (DEFAULT or GENERATION)
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mstlEts } from '../../src/services/forecasting/engine/augurs-wasm.js';
import { errorScale } from '../../src/services/forecasting/engine/backtest.js';
import { forecastSeries } from '../../src/services/forecasting/engine/forecast-series.js';
import type { ForecastProfile, MethodName } from '../../src/services/forecasting/engine/types.js';

export const HOLDOUT = 13;
export const LEVELS = [80, 95];
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DATA_FILE = join(root, '..', 'shared', 'data', 'walmart-weekly-store-sales.csv');

export interface StoreSeries { store: string; weekStarts: string[]; values: number[] }

/** One series per store, oldest week first. The file dates the Friday ending each week (DD/MM/YY); the week starts 6 days before. */
export function readStores(file = DATA_FILE): StoreSeries[] {
  const byStore = new Map<string, { date: string; value: number }[]>();
  for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
    const [store, date, sales] = line.split(',');
    const [dd, mm, yy] = date!.split(/[/-]/);
    const friday = Date.UTC(2000 + Number(yy), Number(mm) - 1, Number(dd));
    const weekStart = new Date(friday - 6 * 86_400_000).toISOString().slice(0, 10);
    const rows = byStore.get(store!) ?? [];
    rows.push({ date: weekStart, value: Number(sales) });
    byStore.set(store!, rows);
  }
  return [...byStore].map(([store, rows]) => {
    rows.sort((a, b) => a.date.localeCompare(b.date));
    return { store, weekStarts: rows.map((r) => r.date), values: rows.map((r) => r.value) };
  });
}

interface Forecast { median: number[]; bounds: Record<number, { lower: number[]; upper: number[] }> }
type Forecaster = (train: StoreSeries) => Forecast;

export interface Score { name: string; mase: number; wape: number; bias: number; coverage80: number; coverage95: number; msPerSeries: number; methods?: Record<string, number> }

export function score(name: string, stores: StoreSeries[], forecaster: Forecaster, onMethod?: (s: StoreSeries) => string): Score {
  let mase = 0, absError = 0, signedError = 0, actualTotal = 0, points = 0;
  const inside: Record<number, number> = { 80: 0, 95: 0 };
  const methods: Record<string, number> = {};
  const started = performance.now();
  for (const series of stores) {
    const cut = series.values.length - HOLDOUT;
    const train = { store: series.store, weekStarts: series.weekStarts.slice(0, cut), values: series.values.slice(0, cut) };
    const actual = series.values.slice(cut);
    const f = forecaster(train);
    let seriesAbs = 0;
    actual.forEach((a, h) => {
      const e = f.median[h]! - a;
      seriesAbs += Math.abs(e);
      signedError += e;
      actualTotal += a;
      points++;
      for (const level of LEVELS) if (a >= f.bounds[level]!.lower[h]! && a <= f.bounds[level]!.upper[h]!) inside[level]!++;
    });
    absError += seriesAbs;
    mase += seriesAbs / HOLDOUT / errorScale(train.values).value;
    if (onMethod) { const m = onMethod(train); methods[m] = (methods[m] ?? 0) + 1; }
  }
  const msPerSeries = (performance.now() - started) / stores.length;
  return { name, mase: mase / stores.length, wape: absError / actualTotal, bias: signedError / actualTotal, coverage80: inside[80]! / points, coverage95: inside[95]! / points, msPerSeries, ...(onMethod ? { methods } : {}) };
}

export function engineForecaster(methods?: MethodName[], backtestOrigins?: number, chosen?: Map<string, string>, profile?: ForecastProfile): Forecaster {
  return (train) => {
    const result = forecastSeries({ key: train.store, values: train.values, weekStarts: train.weekStarts }, { horizon: HOLDOUT, levels: LEVELS, ...(methods ? { methods } : {}), ...(backtestOrigins ? { backtestOrigins } : {}), ...(profile ? { profile } : {}) });
    chosen?.set(train.store, result.method);
    return {
      median: result.points.map((p) => p.forecast),
      bounds: Object.fromEntries(LEVELS.map((level, i) => [level, { lower: result.points.map((p) => p.intervals[i]!.lower), upper: result.points.map((p) => p.intervals[i]!.upper) }])),
    };
  };
}

export const augursMstlDefaults: Forecaster = (train) => {
  const bounds: Forecast['bounds'] = {};
  let median: number[] = [];
  for (const level of LEVELS) {
    const model = mstlEts([52]);
    model.fit(train.values);
    const f = model.predict(HOLDOUT, level / 100);
    model.free();
    median = f.point;
    bounds[level] = { lower: f.intervals!.lower, upper: f.intervals!.upper };
  }
  return { median, bounds };
};

export function runAccuracy(options: { methods?: MethodName[]; origins?: number; profile?: ForecastProfile } = {}): Score[] | null {
  if (!existsSync(DATA_FILE)) return null;
  const stores = readStores();
  const chosen = new Map<string, string>();
  const engine = score('engine in process', stores, engineForecaster(options.methods, options.origins, chosen, options.profile), (s) => chosen.get(s.store)!);
  const generationChosen = new Map<string, string>();
  const generation = score('engine, GENERATION profile', stores, engineForecaster(options.methods, options.origins, generationChosen, 'GENERATION'), (s) => generationChosen.get(s.store)!);
  return [
    engine,
    generation,
    score('seasonal naive', stores, engineForecaster(['SEASONAL_NAIVE'])),
    score('augurs MSTL (defaults)', stores, augursMstlDefaults),
  ];
}

function option(name: string) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const methods = option('--methods')?.split(',') as MethodName[] | undefined;
  const origins = option('--origins') ? Number(option('--origins')) : undefined;
  const profile = option('--profile') as ForecastProfile | undefined;
  const scores = runAccuracy({ ...(methods ? { methods } : {}), ...(origins ? { origins } : {}), ...(profile ? { profile } : {}) });
  if (!scores) {
    console.log(`Skipping the forecast accuracy check: ${DATA_FILE} is absent (see shared/data/README.md).`);
  } else {
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    console.log('method                    MASE   WAPE   bias    cov80  cov95  ms/series');
    for (const s of scores) console.log(`${s.name.padEnd(24)} ${s.mase.toFixed(3)}  ${pct(s.wape).padStart(5)}  ${pct(s.bias).padStart(6)}  ${pct(s.coverage80).padStart(5)}  ${pct(s.coverage95).padStart(5)}  ${s.msPerSeries.toFixed(0)}`);
    for (const s of scores) if (s.methods) console.log(`${s.name} methods:`, s.methods);
  }
}
