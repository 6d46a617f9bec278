// Runs `prisma generate` offline. The Prisma CLI insists on its native schema engine binary at start-up
// and would download it; generation itself does not use it, so any existing executable satisfies the
// check (we point it at node). Migrations use the Wasm engine instead (src/db/migrations.ts).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const result = spawnSync(process.execPath, [cli, 'generate'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    // Generators such as prisma-pothos-types are found on PATH, as under `npm run`.
    PATH: [path.resolve('node_modules/.bin'), process.env.PATH].join(path.delimiter),
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
});
process.exit(result.status ?? 1);
