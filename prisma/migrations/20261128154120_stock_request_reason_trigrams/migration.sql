-- CreateIndex
CREATE INDEX "stock_requests_reason_trgm_idx" ON "stock_requests" USING GIN ("reason" gin_trgm_ops);
