// `npm start`: runs the compiled server (dist/), building it first when it is missing or older than the sources
// (scripts/build-if-stale.mjs), so that a start costs what the server's own start-up costs instead of compiling
// TypeScript in the process every time. `npm install && npm start` on a bare machine still works: the first start
// builds once. START_FROM_SOURCE=1 runs the sources under tsx instead (as does a failed build).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, root } from './build-if-stale.mjs';

// START_DIST_DIR: another build folder inside the project (tests of this script use their own).
const dist = process.env.START_DIST_DIR ? path.resolve(root, process.env.START_DIST_DIR) : path.join(root, 'dist');
if (process.env.START_FROM_SOURCE !== '1' && (await ensureBuilt(dist))) {
  await import(pathToFileURL(path.join(dist, 'src', 'main.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'src', 'main.ts')).href);
}
