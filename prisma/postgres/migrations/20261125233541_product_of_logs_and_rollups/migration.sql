-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN     "productId" TEXT;

-- AlterTable
ALTER TABLE "UsageRollup" ADD COLUMN     "productId" TEXT;

-- CreateIndex
CREATE INDEX "RequestLog_projectId_environment_productId_timestamp_id_idx" ON "RequestLog"("projectId", "environment", "productId", "timestamp", "id");
