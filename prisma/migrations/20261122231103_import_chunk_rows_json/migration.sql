-- AlterTable
ALTER TABLE "import_job_chunks" ALTER COLUMN "rows" SET DATA TYPE JSON;

-- Written by hand (Prisma does not model storage): chunk rows are written once and read once, so they
-- are kept as the text that was sent, neither converted to jsonb nor compressed: both cost more CPU
-- than the space they save for rows that are deleted with their job.
ALTER TABLE "import_job_chunks" ALTER COLUMN "rows" SET STORAGE EXTERNAL;
