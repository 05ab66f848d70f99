-- Real git repositories: an annotated tag's object id, and the ref updates under way (a crash
-- between git moving refs and the database recording it is repaired from these).
ALTER TABLE "Tag" ADD COLUMN "objectSha" TEXT;

CREATE TABLE "PendingRefUpdate" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "actorId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PendingRefUpdate_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "PendingRefUpdate_projectId_idx" ON "PendingRefUpdate"("projectId");
ALTER TABLE "PendingRefUpdate" ADD CONSTRAINT "PendingRefUpdate_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
