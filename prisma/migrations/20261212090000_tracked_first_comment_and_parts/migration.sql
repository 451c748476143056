-- AlterTable
ALTER TABLE "PostTarget" ADD COLUMN     "trackedFirstComment" TEXT,
ADD COLUMN     "trackedParts" TEXT[] DEFAULT ARRAY[]::TEXT[];
