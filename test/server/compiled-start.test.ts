import { existsSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseForProcesses, ROOT, startServerProcess } from '../support/processes.js';

// `npm start` (scripts/start.mjs, docs/configuration.md "Starting"): builds dist/ when it is missing or older than
// the sources, then runs the compiled server; a start with a fresh build does not build again. A source touched
// after the build makes the next start build anew. Real processes, timed nowhere (the start time is a benchmark's).
const database = databaseForProcesses();
const START = ['scripts/start.mjs'];
const stamp = path.join(ROOT, 'dist', '.built');

describe('npm start', () => {
  it('runs the compiled server, building it only when the sources are newer than the build', async () => {
    const first = await startServerProcess(database.env(), START, 240_000);
    try {
      expect(existsSync(path.join(ROOT, 'dist', 'src', 'main.js'))).toBe(true);
      const built = statSync(stamp).mtimeMs;
      // Served by the compiled code: the REST reference resolves its package from dist/ too.
      expect((await fetch(`${first.baseUrl}/api/docs`)).status).toBe(200);
      expect((await fetch(`${first.baseUrl}/health/ready`)).status).toBe(200);
      await first.stop();

      const second = await startServerProcess(database.env(), START, 60_000);
      await second.stop();
      expect(second.output()).not.toContain('Building the server');
      expect(statSync(stamp).mtimeMs).toBe(built);

      // A source changed after the build: the next start builds again.
      const source = path.join(ROOT, 'src', 'main.ts');
      const now = new Date();
      utimesSync(source, now, new Date(built + 1000));
      const third = await startServerProcess(database.env(), START, 240_000);
      await third.stop();
      expect(third.output()).toContain('Building the server once');
      expect(statSync(stamp).mtimeMs).toBeGreaterThan(built);
    } finally {
      await first.stop();
    }
  }, 600_000);
});
