-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN "autoRecharge" JSONB;
ALTER TABLE "Subscription" ADD COLUMN "spendCap" JSONB;

-- CreateTable
CREATE TABLE "CreditEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "subscriptionId" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "amountNanos" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "expiresAt" DATETIME,
    "grantId" TEXT,
    "invoiceId" TEXT,
    "paymentId" TEXT,
    "note" TEXT,
    "createdBy" TEXT,
    "dedupeKey" TEXT,
    "createdAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "SpendAlert" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "subscriptionId" TEXT NOT NULL,
    "periodStart" DATETIME NOT NULL,
    "threshold" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Price" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "businessId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount" REAL,
    "interval" TEXT,
    "includedQuantity" INTEGER,
    "minVolume" INTEGER,
    "description" TEXT,
    "tiers" JSONB,
    "tiersMode" TEXT,
    "baseSubscription" JSONB,
    "overageRate" REAL,
    "metrics" JSONB,
    "rateLimit" JSONB,
    "monthlyQuota" INTEGER,
    "billFailedCalls" BOOLEAN NOT NULL DEFAULT false,
    "billing" TEXT NOT NULL DEFAULT 'postpaid',
    "maxCostPerCall" REAL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Price_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Price" ("amount", "baseSubscription", "billFailedCalls", "businessId", "createdAt", "currency", "description", "environment", "id", "includedQuantity", "interval", "isActive", "metrics", "minVolume", "monthlyQuota", "name", "overageRate", "productId", "rateLimit", "tiers", "tiersMode", "type", "updatedAt") SELECT "amount", "baseSubscription", "billFailedCalls", "businessId", "createdAt", "currency", "description", "environment", "id", "includedQuantity", "interval", "isActive", "metrics", "minVolume", "monthlyQuota", "name", "overageRate", "productId", "rateLimit", "tiers", "tiersMode", "type", "updatedAt" FROM "Price";
DROP TABLE "Price";
ALTER TABLE "new_Price" RENAME TO "Price";
CREATE INDEX "Price_productId_createdAt_id_idx" ON "Price"("productId", "createdAt", "id");
CREATE INDEX "Price_businessId_environment_idx" ON "Price"("businessId", "environment");
CREATE TABLE "new_UsageEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "timestamp" DATETIME NOT NULL,
    "businessId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "apiKey" TEXT NOT NULL,
    "userId" TEXT,
    "method" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "errorType" TEXT,
    "latency" REAL NOT NULL,
    "requestSize" INTEGER NOT NULL,
    "responseSize" INTEGER NOT NULL,
    "computeTime" REAL,
    "cost" REAL,
    "billable" BOOLEAN NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "region" TEXT,
    "productId" TEXT,
    "subscriptionId" TEXT,
    "providerId" TEXT,
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "paidByCredits" BOOLEAN NOT NULL DEFAULT false,
    "identifier" TEXT
);
INSERT INTO "new_UsageEvent" ("apiKey", "billable", "businessId", "computeTime", "cost", "endpoint", "environment", "errorType", "id", "identifier", "ip", "latency", "method", "path", "productId", "projectId", "providerId", "quantity", "region", "requestSize", "responseSize", "statusCode", "subscriptionId", "timestamp", "userAgent", "userId") SELECT "apiKey", "billable", "businessId", "computeTime", "cost", "endpoint", "environment", "errorType", "id", "identifier", "ip", "latency", "method", "path", "productId", "projectId", "providerId", "quantity", "region", "requestSize", "responseSize", "statusCode", "subscriptionId", "timestamp", "userAgent", "userId" FROM "UsageEvent";
DROP TABLE "UsageEvent";
ALTER TABLE "new_UsageEvent" RENAME TO "UsageEvent";
CREATE INDEX "UsageEvent_projectId_environment_timestamp_id_idx" ON "UsageEvent"("projectId", "environment", "timestamp", "id");
CREATE INDEX "UsageEvent_businessId_environment_timestamp_idx" ON "UsageEvent"("businessId", "environment", "timestamp");
CREATE INDEX "UsageEvent_subscriptionId_timestamp_id_idx" ON "UsageEvent"("subscriptionId", "timestamp", "id");
CREATE INDEX "UsageEvent_providerId_timestamp_idx" ON "UsageEvent"("providerId", "timestamp");
CREATE UNIQUE INDEX "UsageEvent_productId_identifier_key" ON "UsageEvent"("productId", "identifier");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "CreditEntry_dedupeKey_key" ON "CreditEntry"("dedupeKey");

-- CreateIndex
CREATE INDEX "CreditEntry_subscriptionId_createdAt_id_idx" ON "CreditEntry"("subscriptionId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CreditEntry_expiresAt_idx" ON "CreditEntry"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "SpendAlert_subscriptionId_periodStart_threshold_key" ON "SpendAlert"("subscriptionId", "periodStart", "threshold");
