import { EventEmitter } from 'node:events';
import { type App, operatorContext } from '../../context.js';
import type { EventFanOut } from '../events/publisher/event-fan-out.js';
import { startWorkLoops, type WorkLoops } from '../work-loops.js';
import { deliverDue } from './webhook-attempts.js';
import { fanOutWebhookEvents } from './webhook-fan-out.js';

/**
 * This instance's webhook worker (docs/webhooks.md): one loop that fans new outbox events out into
 * deliveries (its own cursor) and sends the deliveries due. Everything it works from is in the database, so
 * the loops of several instances share the work. Published events only wake it up early; it also looks every
 * WEBHOOK_POLL_MS (0: this instance delivers nothing).
 */
export function startWebhooks(app: App, options: { fanOut?: EventFanOut; log: (message: string) => void }): WorkLoops {
  const settings = app.config.webhooks;
  const ctx = operatorContext(app.prisma, 'webhooks');
  const wake = new EventEmitter();
  const unregister = settings.pollMs > 0 ? options.fanOut?.register('webhooks', () => void wake.emit('created')) : undefined;
  const loops = startWorkLoops({
    name: 'webhooks',
    count: settings.pollMs > 0 ? 1 : 0,
    pollMs: settings.pollMs,
    wakeOn: wake,
    step: async () => {
      const fannedOut = await fanOutWebhookEvents(ctx);
      const sent = await deliverDue(ctx, settings, app.config.secretsEncryption);
      return fannedOut + sent > 0;
    },
    log: options.log,
  });
  return {
    async stop() {
      unregister?.();
      await loops.stop();
    },
  };
}
