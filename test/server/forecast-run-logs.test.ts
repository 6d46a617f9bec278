import { afterAll, describe, expect, it } from 'vitest';
import { databaseForProcesses, type ServerProcess, startServerProcess } from '../support/processes.js';

const database = databaseForProcesses();

// The demo organization's queued forecast run (SEED_DEMO on an empty database), fitted by a real worker loop.
describe('forecast run logs', { timeout: 180_000 }, () => {
  let demo: ServerProcess | undefined;
  afterAll(() => demo?.stop());

  it('writes a line when a forecast run starts and when it finishes, with its ids and counts', async () => {
    demo = await startServerProcess({ ...database.env(), SEED_DEMO: 'true', LOG_LEVEL: 'info', LOG_FORMAT: 'json', IMPORT_WORKERS: '0', FORECAST_RUN_WORKERS: '1', STOCK_SNAPSHOT_POLL_SECONDS: '0' });
    const lines = () => demo!.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, any>);
    let finished: Record<string, any> | undefined;
    for (let i = 0; i < 2400 && !finished; i++) {
      finished = lines().find((l) => l.msg === 'forecast run finished');
      if (!finished) await new Promise((r) => setTimeout(r, 50));
    }
    expect(finished, demo.output().slice(-3000)).toMatchObject({ level: 30, runId: expect.any(String), organizationId: expect.any(String), scenarioId: expect.any(String), series: expect.any(Number), batches: expect.any(Number), durationMs: expect.any(Number) });
    expect(finished!.series).toBeGreaterThan(0);
    const started = lines().find((l) => l.msg === 'forecast run started' && l.runId === finished!.runId);
    expect(started).toMatchObject({ level: 30, organizationId: finished!.organizationId });
  });
});
