import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

type SchemaEngineClass = typeof SchemaEngine;

let loaded: Promise<SchemaEngineClass> | undefined;

// The package is built for bundlers (it imports the .wasm file as a module). Node 20 cannot do that
// without a flag, so we instantiate the Wasm ourselves and hand it to the generated bindings.
export function loadSchemaEngine(): Promise<SchemaEngineClass> {
  loaded ??= (async () => {
    const require = createRequire(import.meta.url);
    const pkgDir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
    const bg = await import(path.join(pkgDir, 'schema_engine_bg.js'));
    const bytes = await readFile(path.join(pkgDir, 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bg });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    return bg.SchemaEngine as SchemaEngineClass;
  })();
  return loaded;
}
