// `npm run build`: the compiled server in dist/, built anew whether or not it looks fresh (a release build).
import { ensureBuilt } from './build-if-stale.mjs';

if (!(await ensureBuilt(undefined, undefined, { force: true }))) process.exit(1);
