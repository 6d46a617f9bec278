import { mstlEts } from './augurs-wasm.js';
import { SEASON } from './naive-methods.js';
import type { PointForecaster } from './types.js';

/**
 * MSTL: augurs' STL decomposition by the given periods, the remainder-plus-trend forecast by AutoETS and
 * the seasonal components repeated. STL needs two full periods of history.
 */
export function mstlWith(periods = [SEASON]): PointForecaster {
  return (history, horizon) => {
    const model = mstlEts(periods);
    try {
      model.fit(history);
      return model.predict(horizon).point;
    } finally {
      model.free();
    }
  };
}

export const mstl = mstlWith();
