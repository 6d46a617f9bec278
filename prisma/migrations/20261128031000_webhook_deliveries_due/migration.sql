-- The delivery worker's claim reads each active endpoint's oldest due PENDING deliveries (a lateral per endpoint):
-- without this index it would walk every delivery the endpoint ever had, delivered ones included.
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("endpointId", "nextAttemptAt") WHERE "status" = 'PENDING';
