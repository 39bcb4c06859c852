-- CreateTable
CREATE TABLE "UsageEvent" (
    "id" TEXT NOT NULL,
    "timestamp" TIMESTAMP(3) NOT NULL,
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
    "latency" DOUBLE PRECISION NOT NULL,
    "requestSize" INTEGER NOT NULL,
    "responseSize" INTEGER NOT NULL,
    "computeTime" DOUBLE PRECISION,
    "cost" DOUBLE PRECISION,
    "billable" BOOLEAN NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "region" TEXT,

    CONSTRAINT "UsageEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RequestLog" (
    "id" TEXT NOT NULL,
    "timestamp" TIMESTAMP(3) NOT NULL,
    "businessId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "apiKey" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "latency" DOUBLE PRECISION NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "requestHeaders" JSONB NOT NULL,
    "requestBody" TEXT,
    "responseHeaders" JSONB NOT NULL,
    "responseBody" TEXT,

    CONSTRAINT "RequestLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageRollup" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "endpoint" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "errorType" TEXT,
    "apiKey" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "billableCount" INTEGER NOT NULL,
    "latencySum" DOUBLE PRECISION NOT NULL,
    "latencyHist" JSONB NOT NULL,
    "requestBytes" INTEGER NOT NULL,
    "responseBytes" INTEGER NOT NULL,
    "computeMs" DOUBLE PRECISION NOT NULL,
    "cost" DOUBLE PRECISION NOT NULL,
    "compacted" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "UsageRollup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QuotaAlert" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "threshold" INTEGER NOT NULL,
    "used" INTEGER NOT NULL,
    "limit" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QuotaAlert_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "previousAttributes" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UsageEvent_projectId_environment_timestamp_id_idx" ON "UsageEvent"("projectId", "environment", "timestamp", "id");

-- CreateIndex
CREATE INDEX "UsageEvent_businessId_environment_timestamp_idx" ON "UsageEvent"("businessId", "environment", "timestamp");

-- CreateIndex
CREATE INDEX "RequestLog_projectId_environment_timestamp_id_idx" ON "RequestLog"("projectId", "environment", "timestamp", "id");

-- CreateIndex
CREATE INDEX "RequestLog_timestamp_idx" ON "RequestLog"("timestamp");

-- CreateIndex
CREATE INDEX "UsageRollup_projectId_environment_hour_idx" ON "UsageRollup"("projectId", "environment", "hour");

-- CreateIndex
CREATE INDEX "UsageRollup_hour_compacted_idx" ON "UsageRollup"("hour", "compacted");

-- CreateIndex
CREATE UNIQUE INDEX "QuotaAlert_projectId_environment_period_threshold_key" ON "QuotaAlert"("projectId", "environment", "period", "threshold");

-- CreateIndex
CREATE INDEX "Event_businessId_environment_createdAt_id_idx" ON "Event"("businessId", "environment", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Event_businessId_environment_type_idx" ON "Event"("businessId", "environment", "type");
