-- CreateTable
CREATE TABLE "AutomationResource" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "status" TEXT,
    "subtype" TEXT,
    "enabled" BOOLEAN,
    "priority" INTEGER,
    "ref" TEXT,
    "dueDate" DATETIME,
    "startedAt" DATETIME,
    "refs" TEXT NOT NULL DEFAULT '',
    "searchText" TEXT NOT NULL DEFAULT '',
    "document" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "AutomationResource_businessId_environment_kind_createdAt_id_idx" ON "AutomationResource"("businessId", "environment", "kind", "createdAt", "id");

-- CreateIndex
CREATE INDEX "AutomationResource_businessId_environment_kind_name_idx" ON "AutomationResource"("businessId", "environment", "kind", "name");

-- CreateIndex
CREATE INDEX "AutomationResource_businessId_environment_kind_status_idx" ON "AutomationResource"("businessId", "environment", "kind", "status");
