-- AlterTable
ALTER TABLE "import_jobs" ADD COLUMN     "independentChunks" BOOLEAN NOT NULL DEFAULT false;
