/**
 * The domain event types (docs/events.md lists each one's payload). The migration's CHECK constraint on
 * domain_events.type holds the same list; test/events/outbox/outbox.test.ts compares them.
 */
export const EVENT_TYPES = [
  'stock.changed',
  'transfer.shipped',
  'transfer.received',
  'stock_request.moved',
  'stock_request.deleted',
  'recommendation.created',
  'recommendation.moved',
  'recommendation.updated',
  'import.progressed',
  'import.finished',
  'import.failed',
  'forecast_run.progressed',
  'forecast_run.finished',
  'shipment.moved',
  'webhook_endpoint.disabled',
  'booking.moved',
  'alert.raised',
  'alert.acknowledged',
  'alert.resolved',
  'stock.level_crossed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
