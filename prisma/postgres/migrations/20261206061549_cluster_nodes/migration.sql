-- CreateTable
CREATE TABLE "ClusterNode" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "dataDir" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "secretCheck" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,
    "draining" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ClusterNode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JobLease" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "JobLease_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "BusMessage" (
    "id" SERIAL NOT NULL,
    "origin" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BusMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BusMessage_createdAt_idx" ON "BusMessage"("createdAt");
