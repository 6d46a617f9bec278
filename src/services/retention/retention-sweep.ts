import { type App, type OperatorContext, operatorContext } from '../../context.js';
import type { RetentionSettings } from '../../config.js';
import { startWorkLoops, type WorkLoops } from '../work-loops.js';
import { ALERT_PRUNE_BATCH, pruneResolvedAlerts } from './prune-alerts.js';
import { type EventWalk, passedByEveryCursor, pruneEventsAfter, WALK_START } from './prune-events.js';
import { DELIVERY_PRUNE_BATCH, pruneFinishedWebhookDeliveries } from './prune-webhook-deliveries.js';

export interface Pruned {
  events: number;
  webhookDeliveries: number;
  alerts: number;
}

/**
 * One round of retention over every organization: the outbox, finished webhook deliveries (with their attempts)
 * and resolved alerts, each in short batches taken in turn until none is left, the oldest rows first whatever
 * their organization (so one organization's volume costs more batches, never a long statement). Another
 * instance pruning at the same moment makes this one leave the rest of the round to it. Ends early, between
 * batches, when `isStopping` says so.
 */
export async function sweepRetention(ctx: OperatorContext, settings: Omit<RetentionSettings, 'sweepSeconds'>, isStopping: () => boolean = () => false): Promise<Pruned> {
  const pruned: Pruned = { events: 0, webhookDeliveries: 0, alerts: 0 };
  const upTo = await passedByEveryCursor(ctx);
  let events: EventWalk | null = upTo ? WALK_START : null;
  let deliveries = true;
  let alerts = true;
  while ((events || deliveries || alerts) && !isStopping()) {
    if (events && upTo) {
      const step = await pruneEventsAfter(ctx, { after: events, upTo, hours: settings.eventHours });
      pruned.events += step?.deleted ?? 0;
      events = step?.next ?? null;
    }
    if (deliveries) {
      const deleted = await pruneFinishedWebhookDeliveries(ctx, settings.webhookDeliveryDays);
      pruned.webhookDeliveries += deleted ?? 0;
      deliveries = deleted === DELIVERY_PRUNE_BATCH;
    }
    if (alerts) {
      const deleted = await pruneResolvedAlerts(ctx, settings.alertDays);
      pruned.alerts += deleted ?? 0;
      alerts = deleted === ALERT_PRUNE_BATCH;
    }
  }
  return pruned;
}

/**
 * Runs a retention round every RETENTION_SWEEP_SECONDS (0: never) on this instance. Any number of instances may
 * run it: a batch holds an advisory lock, and every delete checks its conditions on the row it deletes.
 */
export function startRetentionSweep(app: App, options: { log: (message: string) => void }): WorkLoops {
  const { sweepSeconds, ...settings } = app.config.retention;
  const ctx = operatorContext(app.prisma, 'retention-sweep');
  return startWorkLoops({
    name: 'retention',
    count: sweepSeconds > 0 ? 1 : 0,
    pollMs: sweepSeconds * 1000,
    step: async (_loop, isStopping) => {
      const pruned = await sweepRetention(ctx, settings, isStopping);
      if (pruned.events + pruned.webhookDeliveries + pruned.alerts > 0) {
        options.log(`retention: deleted ${pruned.events} events, ${pruned.webhookDeliveries} webhook deliveries (with their attempts), ${pruned.alerts} resolved alerts`);
      }
      return false;
    },
    log: options.log,
  });
}
