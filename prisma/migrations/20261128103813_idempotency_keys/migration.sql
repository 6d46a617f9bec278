-- CreateTable
CREATE TABLE "idempotency_keys" (
    "organizationId" TEXT NOT NULL,
    "keyHash" CHAR(64) NOT NULL,
    "fingerprint" CHAR(64) NOT NULL,
    "lockedUntil" TIMESTAMP(3),
    "responseStatus" INTEGER,
    "response" BYTEA,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("organizationId","keyHash")
);

-- CreateIndex
CREATE INDEX "idempotency_keys_expiresAt_idx" ON "idempotency_keys"("expiresAt");

-- AddForeignKey
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
