-- AlterTable
ALTER TABLE "Post" ADD COLUMN     "deliveryLeaseUntil" TIMESTAMP(3),
ADD COLUMN     "deliveryOwner" TEXT;
