import { existsSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseForProcesses, ROOT, startServerProcess } from '../support/processes.js';

// `npm start` (scripts/start.mjs, docs/configuration.md "Starting"): builds its folder when it is missing or older
// than the sources, then runs the compiled server; a start with a fresh build does not build again; a build older
// than the sources is built anew. Its own build folder (START_DIST_DIR), so that other files' `npm start` is not
// disturbed. Real processes, timed nowhere (the start time is a benchmark's).
const database = databaseForProcesses({ fresh: true });
const START = ['scripts/start.mjs'];
const DIST = `.test-dist-${process.pid}`;
const env = () => ({ ...database.env(), START_DIST_DIR: DIST });
const stamp = path.join(ROOT, DIST, '.built');
afterAll(() => rmSync(path.join(ROOT, DIST), { recursive: true, force: true }));

describe('npm start', () => {
  it('runs the compiled server, building it only when the sources are newer than the build', async () => {
    const first = await startServerProcess(env(), START, 240_000);
    try {
      expect(first.output()).toContain('Building the server once');
      expect(existsSync(path.join(ROOT, DIST, 'src', 'main.js'))).toBe(true);
      const built = statSync(stamp).mtimeMs;
      // Served by the compiled code: the REST reference resolves its package from dist/ too.
      expect((await fetch(`${first.baseUrl}/api/docs`)).status).toBe(200);
      expect((await fetch(`${first.baseUrl}/health/ready`)).status).toBe(200);
      await first.stop();

      const second = await startServerProcess(env(), START, 60_000);
      await second.stop();
      expect(second.output()).not.toContain('Building the server');
      expect(statSync(stamp).mtimeMs).toBe(built);

      // A build older than the sources (as after a source changed): the next start builds again.
      utimesSync(stamp, new Date(0), new Date(0));
      const third = await startServerProcess(env(), START, 240_000);
      await third.stop();
      expect(third.output()).toContain('Building the server once');
      expect(statSync(stamp).mtimeMs).toBeGreaterThan(0);
    } finally {
      await first.stop();
    }
  }, 600_000);
});
