-- AlterTable
ALTER TABLE "OAuthClient" ADD COLUMN     "registration" TEXT NOT NULL DEFAULT 'manual',
ALTER COLUMN "businessId" DROP NOT NULL,
ALTER COLUMN "environment" DROP NOT NULL;

-- AlterTable
ALTER TABLE "OAuthCode" ADD COLUMN     "resource" TEXT;

-- AlterTable
ALTER TABLE "OAuthGrant" ADD COLUMN     "resource" TEXT;

-- AlterTable
ALTER TABLE "OAuthToken" ADD COLUMN     "resource" TEXT;
