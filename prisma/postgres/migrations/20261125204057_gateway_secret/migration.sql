-- AlterTable
ALTER TABLE "Product" ADD COLUMN     "gatewaySecret" TEXT,
ADD COLUMN     "previousGatewaySecret" TEXT,
ADD COLUMN     "previousGatewaySecretExpiresAt" TIMESTAMP(3);
