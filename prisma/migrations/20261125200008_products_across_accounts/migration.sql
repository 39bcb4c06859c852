-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Invoice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "businessId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "priceId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL DEFAULT '',
    "productId" TEXT NOT NULL DEFAULT '',
    "number" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "periodStart" DATETIME NOT NULL,
    "periodEnd" DATETIME NOT NULL,
    "lines" JSONB NOT NULL,
    "usageCutoff" TEXT NOT NULL,
    "subtotal" INTEGER NOT NULL,
    "total" INTEGER NOT NULL,
    "amountPaid" INTEGER NOT NULL DEFAULT 0,
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "nextPaymentAttempt" DATETIME,
    "paidAt" DATETIME,
    "finalizedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Invoice" ("amountPaid", "attemptCount", "businessId", "createdAt", "currency", "environment", "finalizedAt", "id", "lines", "nextPaymentAttempt", "number", "paidAt", "periodEnd", "periodStart", "priceId", "projectId", "status", "subscriptionId", "subtotal", "total", "updatedAt", "usageCutoff") SELECT "amountPaid", "attemptCount", "businessId", "createdAt", "currency", "environment", "finalizedAt", "id", "lines", "nextPaymentAttempt", "number", "paidAt", "periodEnd", "periodStart", "priceId", "projectId", "status", "subscriptionId", "subtotal", "total", "updatedAt", "usageCutoff" FROM "Invoice";
DROP TABLE "Invoice";
ALTER TABLE "new_Invoice" RENAME TO "Invoice";
CREATE INDEX "Invoice_businessId_environment_createdAt_id_idx" ON "Invoice"("businessId", "environment", "createdAt", "id");
CREATE INDEX "Invoice_providerId_environment_periodStart_idx" ON "Invoice"("providerId", "environment", "periodStart");
CREATE INDEX "Invoice_status_nextPaymentAttempt_idx" ON "Invoice"("status", "nextPaymentAttempt");
CREATE UNIQUE INDEX "Invoice_subscriptionId_periodStart_key" ON "Invoice"("subscriptionId", "periodStart");
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
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Price_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Price" ("amount", "baseSubscription", "businessId", "createdAt", "currency", "description", "environment", "id", "includedQuantity", "interval", "isActive", "metrics", "minVolume", "name", "overageRate", "productId", "tiers", "tiersMode", "type", "updatedAt") SELECT "amount", "baseSubscription", "businessId", "createdAt", "currency", "description", "environment", "id", "includedQuantity", "interval", "isActive", "metrics", "minVolume", "name", "overageRate", "productId", "tiers", "tiersMode", "type", "updatedAt" FROM "Price";
DROP TABLE "Price";
ALTER TABLE "new_Price" RENAME TO "Price";
CREATE INDEX "Price_productId_createdAt_id_idx" ON "Price"("productId", "createdAt", "id");
CREATE INDEX "Price_businessId_environment_idx" ON "Price"("businessId", "environment");
CREATE TABLE "new_Product" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "businessId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "description" TEXT,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "industries" JSONB,
    "productCategories" JSONB,
    "interfaces" JSONB,
    "searchText" TEXT NOT NULL DEFAULT '',
    "visibility" TEXT NOT NULL DEFAULT 'private',
    "slug" TEXT,
    "api" JSONB,
    "apiSecretHeaders" TEXT,
    "publishedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Product_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Product" ("businessId", "createdAt", "description", "environment", "id", "industries", "interfaces", "isActive", "name", "productCategories", "searchText", "type", "updatedAt") SELECT "businessId", "createdAt", "description", "environment", "id", "industries", "interfaces", "isActive", "name", "productCategories", "searchText", "type", "updatedAt" FROM "Product";
DROP TABLE "Product";
ALTER TABLE "new_Product" RENAME TO "Product";
CREATE UNIQUE INDEX "Product_slug_key" ON "Product"("slug");
CREATE INDEX "Product_visibility_isActive_createdAt_id_idx" ON "Product"("visibility", "isActive", "createdAt", "id");
CREATE INDEX "Product_businessId_environment_createdAt_id_idx" ON "Product"("businessId", "environment", "createdAt", "id");
CREATE INDEX "Product_businessId_environment_type_idx" ON "Product"("businessId", "environment", "type");
CREATE INDEX "Product_businessId_environment_name_idx" ON "Product"("businessId", "environment", "name");
CREATE TABLE "new_Subscription" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "businessId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL DEFAULT '',
    "priceId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currentSlot" TEXT,
    "currentPeriodStart" DATETIME NOT NULL,
    "currentPeriodEnd" DATETIME NOT NULL,
    "cancelAtPeriodEnd" BOOLEAN NOT NULL DEFAULT false,
    "canceledAt" DATETIME,
    "endedAt" DATETIME,
    "pendingPriceId" TEXT,
    "paymentMethod" JSONB,
    "metadata" JSONB,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Subscription" ("businessId", "cancelAtPeriodEnd", "canceledAt", "createdAt", "currentPeriodEnd", "currentPeriodStart", "currentSlot", "endedAt", "environment", "id", "metadata", "paymentMethod", "pendingPriceId", "priceId", "productId", "projectId", "status", "updatedAt") SELECT "businessId", "cancelAtPeriodEnd", "canceledAt", "createdAt", "currentPeriodEnd", "currentPeriodStart", "currentSlot", "endedAt", "environment", "id", "metadata", "paymentMethod", "pendingPriceId", "priceId", "productId", "projectId", "status", "updatedAt" FROM "Subscription";
DROP TABLE "Subscription";
ALTER TABLE "new_Subscription" RENAME TO "Subscription";
CREATE UNIQUE INDEX "Subscription_currentSlot_key" ON "Subscription"("currentSlot");
CREATE INDEX "Subscription_businessId_environment_createdAt_id_idx" ON "Subscription"("businessId", "environment", "createdAt", "id");
CREATE INDEX "Subscription_providerId_environment_createdAt_id_idx" ON "Subscription"("providerId", "environment", "createdAt", "id");
CREATE INDEX "Subscription_projectId_environment_status_idx" ON "Subscription"("projectId", "environment", "status");
CREATE INDEX "Subscription_status_currentPeriodEnd_idx" ON "Subscription"("status", "currentPeriodEnd");
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
    "identifier" TEXT
);
INSERT INTO "new_UsageEvent" ("apiKey", "billable", "businessId", "computeTime", "cost", "endpoint", "environment", "errorType", "id", "ip", "latency", "method", "path", "projectId", "region", "requestSize", "responseSize", "statusCode", "timestamp", "userAgent", "userId") SELECT "apiKey", "billable", "businessId", "computeTime", "cost", "endpoint", "environment", "errorType", "id", "ip", "latency", "method", "path", "projectId", "region", "requestSize", "responseSize", "statusCode", "timestamp", "userAgent", "userId" FROM "UsageEvent";
DROP TABLE "UsageEvent";
ALTER TABLE "new_UsageEvent" RENAME TO "UsageEvent";
CREATE INDEX "UsageEvent_projectId_environment_timestamp_id_idx" ON "UsageEvent"("projectId", "environment", "timestamp", "id");
CREATE INDEX "UsageEvent_businessId_environment_timestamp_idx" ON "UsageEvent"("businessId", "environment", "timestamp");
CREATE INDEX "UsageEvent_subscriptionId_timestamp_id_idx" ON "UsageEvent"("subscriptionId", "timestamp", "id");
CREATE INDEX "UsageEvent_providerId_timestamp_idx" ON "UsageEvent"("providerId", "timestamp");
CREATE UNIQUE INDEX "UsageEvent_productId_identifier_key" ON "UsageEvent"("productId", "identifier");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Backfill: the provider of a subscription is the business of its product. One current subscription per
-- product, so the current slot gains the product id. Invoices name their seller and product.
UPDATE "Subscription" SET "providerId" = COALESCE((SELECT "businessId" FROM "Product" WHERE "Product"."id" = "Subscription"."productId"), "businessId");
UPDATE "Subscription" SET "currentSlot" = "currentSlot" || ':' || "productId" WHERE "currentSlot" IS NOT NULL;
UPDATE "Invoice" SET "productId" = COALESCE((SELECT "productId" FROM "Subscription" WHERE "Subscription"."id" = "Invoice"."subscriptionId"), '');
UPDATE "Invoice" SET "providerId" = COALESCE((SELECT "providerId" FROM "Subscription" WHERE "Subscription"."id" = "Invoice"."subscriptionId"), "businessId");
