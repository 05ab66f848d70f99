-- Markdown uploads of projects and groups (exactly one owner).
-- CreateTable
CREATE TABLE "Upload" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER,
    "groupId" INTEGER,
    "secret" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "uploadedById" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Upload_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Upload_projectId_id_idx" ON "Upload"("projectId", "id");

-- CreateIndex
CREATE INDEX "Upload_groupId_id_idx" ON "Upload"("groupId", "id");

-- CreateIndex
CREATE INDEX "Upload_secret_idx" ON "Upload"("secret");

-- CreateIndex
CREATE INDEX "Upload_uploadedById_idx" ON "Upload"("uploadedById");

-- AddForeignKey
ALTER TABLE "Upload" ADD CONSTRAINT "Upload_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Upload" ADD CONSTRAINT "Upload_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Upload" ADD CONSTRAINT "Upload_uploadedById_fkey" FOREIGN KEY ("uploadedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "Upload" ADD CONSTRAINT "Upload_one_owner" CHECK (("projectId" IS NULL) <> ("groupId" IS NULL));
