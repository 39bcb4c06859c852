-- CreateTable
CREATE TABLE "AutomationResource" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "status" TEXT,
    "subtype" TEXT,
    "enabled" BOOLEAN,
    "priority" INTEGER,
    "ref" TEXT,
    "dueDate" TIMESTAMP(3),
    "startedAt" TIMESTAMP(3),
    "refs" TEXT NOT NULL DEFAULT '',
    "searchText" TEXT NOT NULL DEFAULT '',
    "document" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AutomationResource_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AutomationResource_businessId_environment_kind_createdAt_id_idx" ON "AutomationResource"("businessId", "environment", "kind", "createdAt", "id");

-- CreateIndex
CREATE INDEX "AutomationResource_businessId_environment_kind_name_idx" ON "AutomationResource"("businessId", "environment", "kind", "name");

-- CreateIndex
CREATE INDEX "AutomationResource_businessId_environment_kind_status_idx" ON "AutomationResource"("businessId", "environment", "kind", "status");
