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
    "onLimiterOutage" TEXT NOT NULL DEFAULT 'open',
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Price_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Price" ("amount", "baseSubscription", "billFailedCalls", "billing", "businessId", "createdAt", "currency", "description", "environment", "id", "includedQuantity", "interval", "isActive", "maxCostPerCall", "metrics", "minVolume", "monthlyQuota", "name", "overageRate", "productId", "rateLimit", "tiers", "tiersMode", "type", "updatedAt") SELECT "amount", "baseSubscription", "billFailedCalls", "billing", "businessId", "createdAt", "currency", "description", "environment", "id", "includedQuantity", "interval", "isActive", "maxCostPerCall", "metrics", "minVolume", "monthlyQuota", "name", "overageRate", "productId", "rateLimit", "tiers", "tiersMode", "type", "updatedAt" FROM "Price";
DROP TABLE "Price";
ALTER TABLE "new_Price" RENAME TO "Price";
CREATE INDEX "Price_productId_createdAt_id_idx" ON "Price"("productId", "createdAt", "id");
CREATE INDEX "Price_businessId_environment_idx" ON "Price"("businessId", "environment");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
