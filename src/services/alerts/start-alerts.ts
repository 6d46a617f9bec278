import { EventEmitter } from 'node:events';
import { type App, operatorContext } from '../../context.js';
import type { EventFanOut } from '../events/publisher/event-fan-out.js';
import { startWorkLoops, type WorkLoops } from '../work-loops.js';
import { sweepAlerts } from './alert-sweep.js';
import { evaluateAlertEvents } from './evaluate-events.js';

/**
 * This instance's alerts evaluator (docs/alerts.md): a loop that evaluates new outbox events after its own
 * cursor, woken by published events (the sink `alerts`) and every ALERT_POLL_MS; and the sweep of the time rules
 * every ALERT_SWEEP_SECONDS. Both work from the database, so several instances share them safely.
 */
export function startAlerts(app: App, options: { fanOut?: EventFanOut; log: (message: string) => void }): WorkLoops {
  const { pollMs, sweepSeconds } = app.config.alerts;
  const ctx = operatorContext(app.prisma, 'alerts');
  const wake = new EventEmitter();
  const unregister = pollMs > 0 ? options.fanOut?.register('alerts', () => void wake.emit('created')) : undefined;
  const evaluator = startWorkLoops({ name: 'alerts', count: pollMs > 0 ? 1 : 0, pollMs, wakeOn: wake, step: async () => (await evaluateAlertEvents(ctx)) > 0, log: options.log });
  const sweep = startWorkLoops({
    name: 'alerts-sweep',
    count: sweepSeconds > 0 ? 1 : 0,
    pollMs: sweepSeconds * 1000,
    step: async () => {
      await sweepAlerts(ctx);
      return false;
    },
    log: options.log,
  });
  return {
    async stop() {
      unregister?.();
      await Promise.all([evaluator.stop(), sweep.stop()]);
    },
  };
}
