import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as etsModule from '@bsull/augurs/ets';
import * as mstlModule from '@bsull/augurs/mstl';

// The package's default initialiser fetches the .wasm by URL, which Node's fetch cannot do for file:
// URLs; read the bytes beside the module and instantiate synchronously instead, once per thread.
const packageDir = dirname(createRequire(import.meta.url).resolve('@bsull/augurs/ets'));
let ready = false;

function init() {
  if (ready) return;
  etsModule.initSync({ module: readFileSync(join(packageDir, 'ets_bg.wasm')) });
  mstlModule.initSync({ module: readFileSync(join(packageDir, 'mstl_bg.wasm')) });
  ready = true;
}

/** augurs' AutoETS, its WASM instantiated on first use. */
export function autoEts(seasonLength: number, spec: string) {
  init();
  return new etsModule.AutoETS(seasonLength, spec);
}

/** augurs' MSTL with an AutoETS trend, its WASM instantiated on first use. */
export function mstlEts(periods: number[]) {
  init();
  return mstlModule.MSTL.ets(periods);
}
