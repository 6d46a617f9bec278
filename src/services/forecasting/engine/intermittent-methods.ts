import type { DemandClass, PointForecaster } from './types.js';

/** Smoothing constant of the intermittent methods; 0.1 is the customary value for weekly demand. */
export const INTERMITTENT_ALPHA = 0.1;
/** Syntetos–Boylan cut-offs: average inter-demand interval and squared coefficient of variation of the non-zero sizes. */
export const ADI_CUTOFF = 1.32;
export const CV2_CUTOFF = 0.49;

export interface DemandPattern {
  /** Average number of weeks between non-zero demands (periods / non-zero periods). */
  adi: number;
  /** Squared coefficient of variation of the non-zero demand sizes (population variance / mean²). */
  cv2: number;
  demandClass: DemandClass;
}

/** Classifies by ADI and CV² (Syntetos & Boylan 2005); null when the series has no demand at all. */
export function classifyDemand(history: number[]): DemandPattern | null {
  const sizes = history.filter((v) => v > 0);
  if (sizes.length === 0) return null;
  const adi = history.length / sizes.length;
  const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
  const variance = sizes.reduce((a, b) => a + (b - mean) ** 2, 0) / sizes.length;
  const cv2 = variance / (mean * mean);
  const lowAdi = adi < ADI_CUTOFF;
  const lowCv2 = cv2 < CV2_CUTOFF;
  const demandClass: DemandClass = lowAdi ? (lowCv2 ? 'SMOOTH' : 'ERRATIC') : lowCv2 ? 'INTERMITTENT' : 'LUMPY';
  return { adi, cv2, demandClass };
}

/**
 * Croston's size and interval estimates after the last week. Both start at the first demand (size) and
 * the weeks up to and including it (interval); each later demand updates them by exponential smoothing.
 */
function crostonState(history: number[], alpha: number) {
  let size: number | null = null;
  let interval = 0;
  let sinceLast = 0;
  for (const value of history) {
    sinceLast += 1;
    if (value <= 0) continue;
    if (size === null) {
      size = value;
      interval = sinceLast;
    } else {
      size += alpha * (value - size);
      interval += alpha * (sinceLast - interval);
    }
    sinceLast = 0;
  }
  return size === null ? null : { size, interval };
}

/** Croston (1972): smoothed size over smoothed interval, flat. */
export function crostonWith(alpha = INTERMITTENT_ALPHA): PointForecaster {
  return (history, horizon) => {
    const state = crostonState(history, alpha);
    const rate = state ? state.size / state.interval : 0;
    return Array.from({ length: horizon }, () => rate);
  };
}

/** Syntetos–Boylan approximation: Croston times (1 − α/2), removing its upward bias. */
export function sbaWith(alpha = INTERMITTENT_ALPHA): PointForecaster {
  const croston = crostonWith(alpha);
  return (history, horizon) => croston(history, horizon).map((v) => v * (1 - alpha / 2));
}

/**
 * Teunter–Syntetos–Babai (2011): smooths the probability of a demand every week (towards 1 or 0) and the
 * size only in weeks with demand, so the forecast decays through long runs of zeros. The probability
 * starts at the share of weeks with demand, the size at the first demand.
 */
export function tsbWith(alpha = INTERMITTENT_ALPHA, beta = INTERMITTENT_ALPHA): PointForecaster {
  return (history, horizon) => {
    const first = history.find((v) => v > 0);
    if (first === undefined) return Array.from({ length: horizon }, () => 0);
    let probability = history.filter((v) => v > 0).length / history.length;
    let size = first;
    for (const value of history) {
      if (value > 0) {
        probability += beta * (1 - probability);
        size += alpha * (value - size);
      } else {
        probability -= beta * probability;
      }
    }
    return Array.from({ length: horizon }, () => probability * size);
  };
}

export const croston = crostonWith();
export const sba = sbaWith();
export const tsb = tsbWith();
