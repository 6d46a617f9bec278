-- CreateTable
CREATE TABLE "demand_history_rates" (
    "organizationId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "units" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "demand_history_rates_pkey" PRIMARY KEY ("organizationId","locationId","productMasterId")
);

-- CreateTable
CREATE TABLE "demand_history_rate_weeks" (
    "organizationId" TEXT NOT NULL,
    "weekStart" DATE NOT NULL,
    "refreshedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "demand_history_rate_weeks_pkey" PRIMARY KEY ("organizationId")
);

-- AddForeignKey
ALTER TABLE "demand_history_rates" ADD CONSTRAINT "demand_history_rates_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "demand_history_rate_weeks" ADD CONSTRAINT "demand_history_rate_weeks_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: the rates follow every write of demand_history. The (organization, product, location) keys a
-- statement touched are summed again over the window of their organization's marked week (56 days =
-- DEMAND_WEEKS × 7 of planning/projection/demand-rate.ts). The advisory lock per organization serializes this
-- with the weekly refresh (demand-history-rates.ts) and with other writers of the organization's history, so a
-- sum is never taken against a window another transaction is replacing; each statement after it sees what
-- committed before it was granted (READ COMMITTED).
CREATE FUNCTION demand_history_rates_recount(orgs text[], products text[], locations text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  org text;
BEGIN
  FOR org IN SELECT DISTINCT o FROM unnest(orgs) AS o ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('demand_history_rates:' || org, 0));
  END LOOP;
  DELETE FROM demand_history_rates r
  USING unnest(orgs, products, locations) AS k(o, p, l)
  WHERE r."organizationId" = k.o AND r."locationId" = k.l AND r."productMasterId" = k.p;
  INSERT INTO demand_history_rates ("organizationId", "locationId", "productMasterId", units)
  SELECT h."organizationId", h."locationId", h."productMasterId", SUM(h."actualUnits")
  FROM unnest(orgs, products, locations) AS k(o, p, l)
  JOIN demand_history_rate_weeks w ON w."organizationId" = k.o
  JOIN demand_history h ON h."organizationId" = k.o AND h."productMasterId" = k.p AND h."locationId" = k.l
    AND h."weekStart" >= w."weekStart" - 56 AND h."weekStart" < w."weekStart"
  GROUP BY 1, 2, 3
  HAVING SUM(h."actualUnits") > 0;
END $$;

-- One function behind the three triggers: the keys a statement touched, from the transition tables its event has.
CREATE FUNCTION demand_history_rates_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  orgs text[];
  products text[];
  locations text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(o), array_agg(p), array_agg(l) INTO orgs, products, locations
    FROM (SELECT DISTINCT "organizationId" AS o, "productMasterId" AS p, "locationId" AS l FROM new_rows) k;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o), array_agg(p), array_agg(l) INTO orgs, products, locations
    FROM (SELECT DISTINCT "organizationId" AS o, "productMasterId" AS p, "locationId" AS l FROM old_rows) k;
  ELSE
    SELECT array_agg(o), array_agg(p), array_agg(l) INTO orgs, products, locations
    FROM (SELECT "organizationId" AS o, "productMasterId" AS p, "locationId" AS l FROM new_rows
          UNION SELECT "organizationId", "productMasterId", "locationId" FROM old_rows) k;
  END IF;
  IF orgs IS NOT NULL THEN
    PERFORM demand_history_rates_recount(orgs, products, locations);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER demand_history_rates_inserted AFTER INSERT ON demand_history
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION demand_history_rates_follow();
CREATE TRIGGER demand_history_rates_deleted AFTER DELETE ON demand_history
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION demand_history_rates_follow();
CREATE TRIGGER demand_history_rates_updated AFTER UPDATE ON demand_history
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION demand_history_rates_follow();
