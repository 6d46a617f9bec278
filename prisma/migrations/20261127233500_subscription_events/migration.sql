-- Written by hand: no table changes, only the outbox's event types and the triggers that write them.
-- The subscriptions that polled their rows (import progress, forecast run progress, recommendations, stock
-- requests) now follow the published events, so each move they send has an event; shipments write theirs
-- through appendEvents.

ALTER TABLE "domain_events" DROP CONSTRAINT "domain_events_type_check";
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_type_check" CHECK ("type" IN (
  'stock.changed', 'transfer.shipped', 'transfer.received', 'stock_request.moved', 'stock_request.deleted',
  'recommendation.created', 'recommendation.moved', 'recommendation.updated', 'import.progressed', 'import.finished',
  'import.failed', 'forecast_run.progressed', 'forecast_run.finished', 'shipment.moved'));

-- Recommendations: created; moved (the status changed); updated (written again with its status kept: a
-- generation refreshing it). One event per recommendation and statement, set-based.
CREATE OR REPLACE FUNCTION domain_events_from_recommendations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO domain_events ("organizationId", "type", "productId", "locationId", "subjectId", "payload")
    SELECT n."organizationId", 'recommendation.created', n."productMasterId", n."destLocationId", n.id,
           jsonb_build_object('recommendationId', n.id, 'status', n.status::text, 'productId', n."productMasterId",
             'sourceLocationId', n."sourceLocationId", 'destLocationId', n."destLocationId", 'quantity', n.quantity, 'priority', n.priority::text)
    FROM new_rows n ORDER BY n.id;
  ELSE
    INSERT INTO domain_events ("organizationId", "type", "productId", "locationId", "subjectId", "payload")
    SELECT n."organizationId", 'recommendation.moved', n."productMasterId", n."destLocationId", n.id,
           jsonb_build_object('recommendationId', n.id, 'from', o.status::text, 'to', n.status::text, 'productId', n."productMasterId",
             'sourceLocationId', n."sourceLocationId", 'destLocationId', n."destLocationId", 'quantity', n.quantity, 'transferId', n."transferId")
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status IS DISTINCT FROM o.status ORDER BY n.id;
    INSERT INTO domain_events ("organizationId", "type", "productId", "locationId", "subjectId", "payload")
    SELECT n."organizationId", 'recommendation.updated', n."productMasterId", n."destLocationId", n.id,
           jsonb_build_object('recommendationId', n.id, 'status', n.status::text, 'productId', n."productMasterId",
             'sourceLocationId', n."sourceLocationId", 'destLocationId', n."destLocationId", 'quantity', n.quantity, 'priority', n.priority::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status IS NOT DISTINCT FROM o.status AND n."updatedAt" IS DISTINCT FROM o."updatedAt" ORDER BY n.id;
  END IF;
  RETURN NULL;
END $$;

-- An import: progressed (started, or a chunk's checkpoint moved its counts: one event per committed chunk),
-- then finished or failed, in the transaction of the change.
CREATE OR REPLACE FUNCTION domain_events_from_imports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state IN ('COMPLETED', 'FAILED') AND NEW.state IS DISTINCT FROM OLD.state THEN
    INSERT INTO domain_events ("organizationId", "type", "subjectId", "payload")
    VALUES (NEW."organizationId", CASE NEW.state WHEN 'COMPLETED' THEN 'import.finished' ELSE 'import.failed' END, NEW.id,
            jsonb_build_object('importId', NEW.id, 'kind', NEW.kind::text, 'state', NEW.state::text, 'totalRows', NEW."totalRows",
              'processedRows', NEW."processedRows", 'rejectedRows', NEW."rejectedRows", 'failureReason', NEW."failureReason"));
  ELSIF NEW.state NOT IN ('COMPLETED', 'FAILED') AND (NEW.state IS DISTINCT FROM OLD.state
        OR NEW."processedRows" IS DISTINCT FROM OLD."processedRows" OR NEW."rejectedRows" IS DISTINCT FROM OLD."rejectedRows") THEN
    INSERT INTO domain_events ("organizationId", "type", "subjectId", "payload")
    VALUES (NEW."organizationId", 'import.progressed', NEW.id,
            jsonb_build_object('importId', NEW.id, 'kind', NEW.kind::text, 'state', NEW.state::text, 'totalRows', NEW."totalRows",
              'processedRows', NEW."processedRows", 'rejectedRows', NEW."rejectedRows"));
  END IF;
  RETURN NULL;
END $$;

-- A forecast run: progressed (started, a batch stored, or a failed attempt counted: one event per committed
-- batch), then finished (COMPLETED or FAILED). The claim's lastClaimAt stamp is not news.
CREATE OR REPLACE FUNCTION domain_events_from_forecast_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('COMPLETED', 'FAILED') AND NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO domain_events ("organizationId", "type", "productId", "locationId", "subjectId", "payload")
    VALUES (NEW."organizationId", 'forecast_run.finished', NEW."productMasterId", NEW."locationId", NEW.id,
            jsonb_build_object('runId', NEW.id, 'scenarioId', NEW."scenarioId", 'status', NEW.status::text,
              'totalForecast', NEW."totalForecast", 'failureReason', NEW."failureReason"));
  ELSIF NEW.status NOT IN ('COMPLETED', 'FAILED') AND (NEW.status IS DISTINCT FROM OLD.status
        OR NEW."processedSeries" IS DISTINCT FROM OLD."processedSeries" OR NEW."failedAttempts" IS DISTINCT FROM OLD."failedAttempts") THEN
    INSERT INTO domain_events ("organizationId", "type", "productId", "locationId", "subjectId", "payload")
    VALUES (NEW."organizationId", 'forecast_run.progressed', NEW."productMasterId", NEW."locationId", NEW.id,
            jsonb_build_object('runId', NEW.id, 'scenarioId', NEW."scenarioId", 'status', NEW.status::text,
              'processedSeries', NEW."processedSeries", 'totalSeries', NEW."totalSeries", 'failedAttempts', NEW."failedAttempts"));
  END IF;
  RETURN NULL;
END $$;
