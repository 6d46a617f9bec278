/** One weekly demand series, oldest week first. */
export interface WeeklySeries {
  /** Caller's key for the series (for example productMasterId|locationId|channel); returned unchanged. */
  key?: string;
  /** Demand per week, oldest first; missing weeks should be passed as 0. */
  values: number[];
  /** Start date of each week, same length as values (ISO date or Date). */
  weekStarts: (string | Date)[];
}

export interface ForecastOptions {
  /** Weeks to forecast after the last history week. */
  horizon: number;
  /** Central interval levels in percent, for example [80, 95]. Default [80, 95]. */
  levels?: number[];
  /** Rolling-origin backtest: how many forecast origins to score (default 8, 3 in the GENERATION profile). Fewer is faster. */
  backtestOrigins?: number;
  /**
   * DEFAULT: every method, AutoETS and MSTL included, 8 origins (GET /api/forecast). GENERATION: for
   * fitting thousands of series at once, 3 origins and no WASM models: ETS is fitted on a fixed grid
   * (grid-exponential-smoothing.ts) and MSTL is not a candidate.
   */
  profile?: ForecastProfile;
  /** Restrict the candidate methods (default every method the series qualifies for). */
  methods?: MethodName[];
}

export type ForecastProfile = 'DEFAULT' | 'GENERATION';

export type MethodName =
  | 'SIMPLE_LEVEL'
  | 'NAIVE'
  | 'SEASONAL_NAIVE'
  | 'ETS'
  | 'MSTL'
  | 'CROSTON'
  | 'SBA'
  | 'TSB'
  | 'ENSEMBLE';

/** Syntetos–Boylan demand class. */
export type DemandClass = 'SMOOTH' | 'ERRATIC' | 'INTERMITTENT' | 'LUMPY';

export interface IntervalBound {
  /** Level in percent, for example 80. */
  level: number;
  lower: number;
  upper: number;
}

export interface ForecastPoint {
  /** Start date of the week, ISO yyyy-mm-dd. */
  periodStart: string;
  /** Median forecast, never below zero. */
  forecast: number;
  /** One entry per asked level, in the order asked. */
  intervals: IntervalBound[];
}

export interface SeriesForecast {
  key?: string;
  method: MethodName;
  /** For ENSEMBLE: the methods combined and their weights. */
  components?: { method: MethodName; weight: number }[];
  /** Mean MASE of the chosen method over the rolling-origin backtest; null when the series was too short to backtest. */
  backtestError: number | null;
  /** What backtestError is scaled by. */
  errorScale: 'SEASONAL_NAIVE_MAE' | 'NAIVE_MAE' | 'NONE';
  /** Backtest error of every candidate that was scored, for diagnostics. */
  candidates: { method: MethodName; error: number }[];
  demandClass: DemandClass | null;
  /** How the intervals were made. */
  intervalSource: 'CONFORMAL_BY_STEP' | 'CONFORMAL_POOLED' | 'MODEL';
  points: ForecastPoint[];
}

/** A method: history in, point forecasts for the next `horizon` weeks out (may be below zero; the engine clamps). */
export type PointForecaster = (history: number[], horizon: number) => number[];
