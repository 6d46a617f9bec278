-- Wholesale bookings and alerts join the documented event types (EVENT_TYPES in src/kernel/event-types.ts):
-- booking.moved (every move of a booking, its creation included), alert.raised, alert.acknowledged, alert.resolved.
ALTER TABLE "domain_events" DROP CONSTRAINT "domain_events_type_check";
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_type_check" CHECK ("type" IN (
  'stock.changed', 'transfer.shipped', 'transfer.received', 'stock_request.moved', 'stock_request.deleted',
  'recommendation.created', 'recommendation.moved', 'recommendation.updated', 'import.progressed', 'import.finished',
  'import.failed', 'forecast_run.progressed', 'forecast_run.finished', 'shipment.moved', 'webhook_endpoint.disabled',
  'booking.moved', 'alert.raised', 'alert.acknowledged', 'alert.resolved'));
