import { expect, it } from 'vitest';
import { startWorkLoops } from '../../../src/services/work-loops.js';

// The snapshot loop polls once a minute: stopping it while a step runs must not wait for a whole poll after the step.
it('stops a loop whose step is running without sleeping a poll interval after it', async () => {
  let steps = 0;
  const loops = startWorkLoops({
    name: 'slow step',
    count: 1,
    pollMs: 60_000,
    step: async () => {
      steps += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return false;
    },
    log: () => {},
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = Date.now();
  await loops.stop();
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(steps).toBe(1);
});
