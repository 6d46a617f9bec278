-- CreateTable
CREATE TABLE "domain_events" (
    "id" BIGSERIAL NOT NULL,
    "txid" BIGINT NOT NULL DEFAULT ((pg_current_xact_id())::text)::bigint,
    "organizationId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "productId" TEXT,
    "locationId" TEXT,
    "subjectId" TEXT,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "domain_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_publisher_cursors" (
    "name" TEXT NOT NULL,
    "txid" BIGINT NOT NULL DEFAULT 0,
    "lastId" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_publisher_cursors_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "domain_events_txid_id_idx" ON "domain_events"("txid", "id");

-- CreateIndex
CREATE INDEX "domain_events_organizationId_id_idx" ON "domain_events"("organizationId", "id");

-- AddForeignKey
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand from here: the schema cannot declare checks, functions or triggers.

-- The documented event types (EVENT_TYPES in src/services/events/outbox/event-types.ts).
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_type_check" CHECK ("type" IN (
  'stock.changed', 'transfer.shipped', 'transfer.received', 'stock_request.moved', 'recommendation.created',
  'recommendation.moved', 'import.finished', 'import.failed', 'forecast_run.finished'));

-- Stock changed on a line: every ledger writer is covered, set-based (one event per line and statement, its
-- rows' changes in write order), in the transaction of the change.
CREATE FUNCTION domain_events_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events ("organizationId", "type", "productId", "locationId", "subjectId", "payload")
  SELECT n."organizationId", 'stock.changed', n."productMasterId", n."locationId", n."stockLineId",
         jsonb_build_object(
           'stockLineId', n."stockLineId", 'productId', n."productMasterId", 'locationId', n."locationId",
           'changes', jsonb_agg(jsonb_build_object(
             'transactionId', n.id, 'transactionType', n."transactionType", 'bucket', n.bucket::text,
             'deltaQty', n."deltaQty", 'qtyAfter', n."qtyAfter", 'sourceType', n."sourceType", 'sourceId', n."sourceId")
             ORDER BY n.seq))
  FROM new_rows n
  GROUP BY n."organizationId", n."productMasterId", n."locationId", n."stockLineId"
  ORDER BY min(n.seq);
  RETURN NULL;
END $$;
CREATE TRIGGER domain_events_ledger_inserted AFTER INSERT ON stock_transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION domain_events_from_ledger();

INSERT INTO "event_publisher_cursors" ("name") VALUES ('main');

-- Recommendations are created, moved and expired set-based by several writers (generation, review, execution,
-- the expiry sweep): triggers cover them all. Moved = the status changed.
CREATE FUNCTION domain_events_from_recommendations() RETURNS trigger LANGUAGE plpgsql AS $$
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
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER domain_events_recommendations_inserted AFTER INSERT ON transfer_recommendations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION domain_events_from_recommendations();
CREATE TRIGGER domain_events_recommendations_updated AFTER UPDATE ON transfer_recommendations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION domain_events_from_recommendations();

-- An import reaching COMPLETED or FAILED, in the transaction of its last chunk or of its failure.
CREATE FUNCTION domain_events_from_imports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state IN ('COMPLETED', 'FAILED') AND NEW.state IS DISTINCT FROM OLD.state THEN
    INSERT INTO domain_events ("organizationId", "type", "subjectId", "payload")
    VALUES (NEW."organizationId", CASE NEW.state WHEN 'COMPLETED' THEN 'import.finished' ELSE 'import.failed' END, NEW.id,
            jsonb_build_object('importId', NEW.id, 'kind', NEW.kind::text, 'state', NEW.state::text, 'totalRows', NEW."totalRows",
              'processedRows', NEW."processedRows", 'rejectedRows', NEW."rejectedRows", 'failureReason', NEW."failureReason"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER domain_events_imports_updated AFTER UPDATE ON import_jobs
  FOR EACH ROW EXECUTE FUNCTION domain_events_from_imports();

-- A forecast run reaching COMPLETED or FAILED.
CREATE FUNCTION domain_events_from_forecast_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('COMPLETED', 'FAILED') AND NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO domain_events ("organizationId", "type", "productId", "locationId", "subjectId", "payload")
    VALUES (NEW."organizationId", 'forecast_run.finished', NEW."productMasterId", NEW."locationId", NEW.id,
            jsonb_build_object('runId', NEW.id, 'scenarioId', NEW."scenarioId", 'status', NEW.status::text,
              'totalForecast', NEW."totalForecast", 'failureReason', NEW."failureReason"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER domain_events_forecast_runs_updated AFTER UPDATE ON forecast_runs
  FOR EACH ROW EXECUTE FUNCTION domain_events_from_forecast_runs();
