import { backtestErrors, backtestOrigins, errorScale, MAX_BACKTEST_HORIZON, meanScaledError, runBacktest, type ErrorScale } from './backtest.js';
import { mstl } from './decomposition.js';
import { ets, ETS_MIN_LENGTH } from './exponential-smoothing.js';
import { gridEts } from './grid-exponential-smoothing.js';
import { croston, sba, tsb } from './intermittent-methods.js';
import { naive, SEASON, seasonalNaive, simpleLevel } from './naive-methods.js';
import type { DemandClass, ForecastProfile, MethodName, PointForecaster } from './types.js';

/** Series shorter than this get the simple level without a backtest. */
export const MIN_BACKTEST_LENGTH = 8;
/** Least history any backtest origin leaves a method. */
const MIN_ORIGIN = 4;
/** How many of the best methods the ensemble combines at most. */
const ENSEMBLE_SIZE = 5;
/** A method joins the ensemble only when its backtest error is within this factor of the best one. */
const ENSEMBLE_ADMISSION = 2;
/** The ensemble is preferred unless the best single method beats it by more than this factor. */
const ENSEMBLE_TOLERANCE = 1.1;

interface Method {
  name: MethodName;
  forecaster: PointForecaster;
  /** Least history the method can fit. */
  minHistory: number;
}

/** In order of simplicity: on equal backtest error the simpler method wins. */
const METHODS: Method[] = [
  { name: 'SIMPLE_LEVEL', forecaster: simpleLevel, minHistory: 1 },
  { name: 'NAIVE', forecaster: naive, minHistory: 1 },
  { name: 'SEASONAL_NAIVE', forecaster: seasonalNaive, minHistory: SEASON },
  { name: 'CROSTON', forecaster: croston, minHistory: 1 },
  { name: 'SBA', forecaster: sba, minHistory: 1 },
  { name: 'TSB', forecaster: tsb, minHistory: 1 },
  { name: 'ETS', forecaster: ets, minHistory: ETS_MIN_LENGTH },
  { name: 'MSTL', forecaster: mstl, minHistory: 2 * SEASON },
];

const INTERMITTENT_METHODS: MethodName[] = ['SIMPLE_LEVEL', 'CROSTON', 'SBA', 'TSB'];
const CONTINUOUS_METHODS: MethodName[] = ['SIMPLE_LEVEL', 'NAIVE', 'SEASONAL_NAIVE', 'ETS', 'MSTL'];
/** The GENERATION profile leaves out MSTL (WASM, milliseconds a fit, and it needs 104 weeks before the earliest origin anyway). */
const CONTINUOUS_GENERATION_METHODS: MethodName[] = ['SIMPLE_LEVEL', 'NAIVE', 'SEASONAL_NAIVE', 'ETS'];

/** The forecaster behind a method name; in the GENERATION profile ETS is the grid-fitted one. */
export function methodByName(name: MethodName, profile: ForecastProfile = 'DEFAULT'): PointForecaster {
  if (name === 'ETS' && profile === 'GENERATION') return gridEts;
  const method = METHODS.find((m) => m.name === name);
  if (!method) throw new Error(`No forecaster for ${name}`);
  return method.forecaster;
}

/**
 * The methods a series is scored on: the intermittent family for intermittent and lumpy demand, the
 * continuous family otherwise. A constant series is scored on the simple level alone: every method
 * forecasts it exactly, the simplest wins the tie anyway, and AutoETS's optimiser is at its slowest
 * on a series without variance (hundreds of milliseconds).
 */
export function candidateMethods(demandClass: DemandClass | null, allowed?: MethodName[], profile: ForecastProfile = 'DEFAULT', constant = false): MethodName[] {
  const family = constant
    ? ['SIMPLE_LEVEL' as const]
    : demandClass === 'INTERMITTENT' || demandClass === 'LUMPY'
      ? INTERMITTENT_METHODS
      : profile === 'GENERATION'
        ? CONTINUOUS_GENERATION_METHODS
        : CONTINUOUS_METHODS;
  const chosen = allowed ? family.filter((m) => allowed.includes(m)) : family;
  return constant && !chosen.length ? candidateMethods(demandClass, allowed, profile) : chosen;
}

export interface Scored {
  method: MethodName;
  error: number;
  /** errors[k][h] of the backtest, actual − forecast. */
  errors: number[][];
  forecasts: number[][];
}

export interface Selection {
  method: MethodName;
  components?: { method: MethodName; weight: number }[];
  error: number | null;
  scale: ErrorScale;
  candidates: { method: MethodName; error: number }[];
  /** Backtest errors of the chosen method, for the intervals; null when there was no backtest. */
  errors: number[][] | null;
}

/**
 * Rolling-origin backtest: every candidate forecasts the same `backtestHorizon` weeks from each of the
 * same origins (the last `originCount` weeks that leave a full horizon), fitted only on the history
 * before the origin; the lowest mean MASE wins. A candidate that needs more history than the earliest
 * origin leaves, or that fails to fit, is not scored. The methods within twice the best error (at
 * most five) are also combined, weighted by inverse squared error, and the combination is scored on the
 * same backtest; it is chosen unless the best single method beats it by more than 10%, because a
 * combination holds up better out of sample than a winner picked on a few origins (on the Walmart
 * split: mean MASE 0.51 against 0.55 when the combination had to win outright).
 */
export function selectMethod(history: number[], names: MethodName[], horizon: number, originCount: number, profile: ForecastProfile = 'DEFAULT'): Selection {
  const scale = errorScale(history);
  const backtestHorizon = Math.min(horizon, MAX_BACKTEST_HORIZON, Math.max(1, Math.floor(history.length / 4)));
  const origins = history.length >= MIN_BACKTEST_LENGTH ? backtestOrigins(history.length, backtestHorizon, originCount, MIN_ORIGIN) : [];
  if (origins.length < 2) return { method: 'SIMPLE_LEVEL', error: null, scale, candidates: [], errors: null };
  const earliest = Math.min(...origins);
  const scored: Scored[] = [];
  for (const method of METHODS.filter((m) => names.includes(m.name) && m.minHistory <= earliest)) {
    try {
      const run = runBacktest(history, methodByName(method.name, profile), origins, backtestHorizon);
      const errors = backtestErrors(history, run);
      const error = meanScaledError(errors, scale);
      if (Number.isFinite(error)) scored.push({ method: method.name, error, errors, forecasts: run.forecasts });
    } catch {
      // A model that cannot be fitted on this history is simply not a candidate.
    }
  }
  if (!scored.length) return { method: 'SIMPLE_LEVEL', error: null, scale, candidates: [], errors: null };
  const ranked = [...scored].sort((a, b) => a.error - b.error);
  const best = ranked[0]!;
  const candidates = scored.map((s) => ({ method: s.method, error: s.error }));
  const members = ranked.filter((s) => s.error <= best.error * ENSEMBLE_ADMISSION).slice(0, ENSEMBLE_SIZE);
  const ensemble = ensembleOf(history, members, origins, scale);
  if (ensemble) candidates.push({ method: 'ENSEMBLE', error: ensemble.scored.error });
  if (ensemble && ensemble.scored.error <= best.error * ENSEMBLE_TOLERANCE) {
    return { method: 'ENSEMBLE', components: ensemble.components, error: ensemble.scored.error, scale, candidates, errors: ensemble.scored.errors };
  }
  return { method: best.method, error: best.error, scale, candidates, errors: best.errors };
}

function ensembleOf(history: number[], top: Scored[], origins: number[], scale: ErrorScale) {
  if (top.length < 2 || top.some((s) => s.error <= 0)) return null;
  const inverse = top.map((s) => 1 / s.error ** 2);
  const total = inverse.reduce((a, b) => a + b, 0);
  const components = top.map((s, i) => ({ method: s.method, weight: inverse[i]! / total }));
  const forecasts = top[0]!.forecasts.map((row, k) => row.map((_, h) => combine(components, top.map((s) => s.forecasts[k]![h]!))));
  const errors = backtestErrors(history, { origins, horizon: forecasts[0]!.length, forecasts });
  return { components, scored: { method: 'ENSEMBLE' as const, error: meanScaledError(errors, scale), errors, forecasts } };
}

export function combine(components: { weight: number }[], values: number[]): number {
  return components.reduce((sum, c, i) => sum + c.weight * values[i]!, 0);
}
