-- AlterTable
ALTER TABLE "Price" ADD COLUMN     "billing" TEXT NOT NULL DEFAULT 'postpaid',
ADD COLUMN     "maxCostPerCall" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "autoRecharge" JSONB,
ADD COLUMN     "spendCap" JSONB;

-- AlterTable
ALTER TABLE "UsageEvent" ADD COLUMN     "paidByCredits" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "CreditEntry" (
    "id" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "amountNanos" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "grantId" TEXT,
    "invoiceId" TEXT,
    "paymentId" TEXT,
    "note" TEXT,
    "createdBy" TEXT,
    "dedupeKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CreditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SpendAlert" (
    "id" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "periodStart" TIMESTAMP(3) NOT NULL,
    "threshold" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SpendAlert_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CreditEntry_dedupeKey_key" ON "CreditEntry"("dedupeKey");

-- CreateIndex
CREATE INDEX "CreditEntry_subscriptionId_createdAt_id_idx" ON "CreditEntry"("subscriptionId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CreditEntry_expiresAt_idx" ON "CreditEntry"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "SpendAlert_subscriptionId_periodStart_threshold_key" ON "SpendAlert"("subscriptionId", "periodStart", "threshold");
