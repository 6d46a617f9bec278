-- CreateIndex
CREATE INDEX "alerts_status_resolvedAt_idx" ON "alerts"("status", "resolvedAt");

-- CreateIndex
CREATE INDEX "domain_events_createdAt_id_idx" ON "domain_events"("createdAt", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_eventId_idx" ON "webhook_deliveries"("eventId");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_lastAttemptAt_idx" ON "webhook_deliveries"("status", "lastAttemptAt");
