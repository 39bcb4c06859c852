-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "productId" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "providerId" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "Price" ADD COLUMN     "billFailedCalls" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "monthlyQuota" INTEGER,
ADD COLUMN     "rateLimit" JSONB;

-- AlterTable
ALTER TABLE "Product" ADD COLUMN     "api" JSONB,
ADD COLUMN     "apiSecretHeaders" TEXT,
ADD COLUMN     "publishedAt" TIMESTAMP(3),
ADD COLUMN     "slug" TEXT,
ADD COLUMN     "visibility" TEXT NOT NULL DEFAULT 'private';

-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "providerId" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "UsageEvent" ADD COLUMN     "identifier" TEXT,
ADD COLUMN     "productId" TEXT,
ADD COLUMN     "providerId" TEXT,
ADD COLUMN     "quantity" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "subscriptionId" TEXT;

-- CreateIndex
CREATE INDEX "Invoice_providerId_environment_periodStart_idx" ON "Invoice"("providerId", "environment", "periodStart");

-- CreateIndex
CREATE UNIQUE INDEX "Product_slug_key" ON "Product"("slug");

-- CreateIndex
CREATE INDEX "Product_visibility_isActive_createdAt_id_idx" ON "Product"("visibility", "isActive", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Subscription_providerId_environment_createdAt_id_idx" ON "Subscription"("providerId", "environment", "createdAt", "id");

-- CreateIndex
CREATE INDEX "UsageEvent_subscriptionId_timestamp_id_idx" ON "UsageEvent"("subscriptionId", "timestamp", "id");

-- CreateIndex
CREATE INDEX "UsageEvent_providerId_timestamp_idx" ON "UsageEvent"("providerId", "timestamp");

-- CreateIndex
CREATE UNIQUE INDEX "UsageEvent_productId_identifier_key" ON "UsageEvent"("productId", "identifier");

-- Backfill: the provider of a subscription is the business of its product. One current subscription per
-- product, so the current slot gains the product id. Invoices name their seller and product.
UPDATE "Subscription" SET "providerId" = COALESCE((SELECT "businessId" FROM "Product" WHERE "Product"."id" = "Subscription"."productId"), "businessId");
UPDATE "Subscription" SET "currentSlot" = "currentSlot" || ':' || "productId" WHERE "currentSlot" IS NOT NULL;
UPDATE "Invoice" SET "productId" = COALESCE((SELECT "productId" FROM "Subscription" WHERE "Subscription"."id" = "Invoice"."subscriptionId"), '');
UPDATE "Invoice" SET "providerId" = COALESCE((SELECT "providerId" FROM "Subscription" WHERE "Subscription"."id" = "Invoice"."subscriptionId"), "businessId");
