-- stock.level_crossed joins the documented event types (EVENT_TYPES in src/kernel/event-types.ts): a product's
-- available units at a location crossed a threshold of its inventory level (docs/events.md).
ALTER TABLE "domain_events" DROP CONSTRAINT "domain_events_type_check";
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_type_check" CHECK ("type" IN (
  'stock.changed', 'transfer.shipped', 'transfer.received', 'stock_request.moved', 'stock_request.deleted',
  'recommendation.created', 'recommendation.moved', 'recommendation.updated', 'import.progressed', 'import.finished',
  'import.failed', 'forecast_run.progressed', 'forecast_run.finished', 'shipment.moved', 'webhook_endpoint.disabled',
  'booking.moved', 'alert.raised', 'alert.acknowledged', 'alert.resolved', 'stock.level_crossed'));

-- Level crossings, set-based, in the transaction of the ledger statement that caused them (every ledger writer is
-- covered, as for stock.changed). For each product and location the statement changed that has an inventory level
-- with a threshold above 0: available after the statement (on hand less every part, nothing of a recalled or expired
-- lot: the quantity rule, as alerts and channel ATP count it) and before it (after, less what the statement's rows
-- changed on usable lines: +on hand, -each part). The CHECK keeps a line's parts within its on hand, so summing
-- per line needs no clip at 0. MIN and REORDER_POINT: DOWN when available falls below, UP when it is back at or
-- above; MAX: UP when available rises above, DOWN when it is back at or below.
CREATE FUNCTION domain_events_level_crossings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Most ledger statements (every adjustment of a product without a level) have nothing to compare: one probe of
  -- inventory_levels' (product, location) key and out, before any stock is summed.
  IF NOT EXISTS (
    SELECT 1 FROM new_rows n
    JOIN inventory_levels il ON il."productMasterId" = n."productMasterId" AND il."locationId" = n."locationId"
    WHERE il."minQuantity" > 0 OR il."reorderQuantity" > 0 OR il."maxQuantity" > 0
  ) THEN
    RETURN NULL;
  END IF;
  INSERT INTO domain_events ("organizationId", "type", "productId", "locationId", "subjectId", "payload")
  WITH changed AS (
    SELECT n."organizationId" AS o, n."productMasterId" AS p, n."locationId" AS l,
           SUM(CASE WHEN n.bucket = 'ON_HAND' THEN n."deltaQty" ELSE -n."deltaQty" END) AS delta, max(n.seq) AS seq
    FROM new_rows n
    JOIN stock_lines s ON s.id = n."stockLineId"
    LEFT JOIN lots lo ON lo.id = s."lotId"
    WHERE NOT (s."lotId" IS NOT NULL AND (lo.recalled OR lo."expiryDate" < (now() AT TIME ZONE 'UTC')::date))
    GROUP BY 1, 2, 3
  ), leveled AS (
    SELECT c.*, il.id AS level, il."minQuantity", il."reorderQuantity", il."maxQuantity"
    FROM changed c
    JOIN inventory_levels il ON il."productMasterId" = c.p AND il."locationId" = c.l AND il."organizationId" = c.o
    WHERE c.delta <> 0 AND (il."minQuantity" > 0 OR il."reorderQuantity" > 0 OR il."maxQuantity" > 0)
  ), measured AS (
    SELECT v.*, a.available AS after, a.available - v.delta AS before
    FROM leveled v
    CROSS JOIN LATERAL (
      SELECT COALESCE(SUM(s."qtyOnHand" - s."qtyReserved" - s."qtyOnHold" - s."qtyPicked" - s."qtyRecalled" - s."qtyExpired"), 0)::bigint AS available
      FROM stock_lines s LEFT JOIN lots lo ON lo.id = s."lotId"
      WHERE s."productMasterId" = v.p AND s."locationId" = v.l
        AND NOT (s."lotId" IS NOT NULL AND (lo.recalled OR lo."expiryDate" < (now() AT TIME ZONE 'UTC')::date))
    ) a
  ), crossings AS (
    SELECT m.*, t.threshold_name, t.threshold,
           CASE WHEN t.threshold_name = 'MAX' THEN (CASE WHEN m.after > t.threshold THEN 'UP' ELSE 'DOWN' END)
                ELSE (CASE WHEN m.after < t.threshold THEN 'DOWN' ELSE 'UP' END) END AS direction
    FROM measured m
    CROSS JOIN LATERAL (VALUES ('MIN', m."minQuantity"), ('REORDER_POINT', m."reorderQuantity"), ('MAX', m."maxQuantity")) AS t(threshold_name, threshold)
    WHERE t.threshold > 0
      AND CASE WHEN t.threshold_name = 'MAX' THEN (m.before > t.threshold) <> (m.after > t.threshold)
               ELSE (m.before < t.threshold) <> (m.after < t.threshold) END
  )
  SELECT c.o, 'stock.level_crossed', c.p, c.l, c.level,
         jsonb_build_object('inventoryLevelId', c.level, 'productId', c.p, 'locationId', c.l, 'level', c.threshold_name,
           'threshold', c.threshold, 'direction', c.direction, 'availableBefore', c.before, 'availableAfter', c.after)
  FROM crossings c
  ORDER BY c.seq, c.threshold;
  RETURN NULL;
END $$;
CREATE TRIGGER domain_events_level_crossings AFTER INSERT ON stock_transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION domain_events_level_crossings();
