-- CreateTable
CREATE TABLE "ClusterNode" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "host" TEXT NOT NULL,
    "dataDir" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "secretCheck" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "seenAt" DATETIME NOT NULL,
    "draining" BOOLEAN NOT NULL DEFAULT false
);

-- CreateTable
CREATE TABLE "JobLease" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "BusMessage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "origin" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "BusMessage_createdAt_idx" ON "BusMessage"("createdAt");
