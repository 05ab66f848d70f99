-- Commit statuses posted from outside CI and the external pipelines GitLab wraps them in
-- CreateTable
CREATE TABLE "CiPipeline" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "iid" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "protected" BOOLEAN NOT NULL DEFAULT false,
    "source" TEXT NOT NULL DEFAULT 'external',
    "status" TEXT NOT NULL DEFAULT 'created',
    "userId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CiPipeline_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CommitStatus" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "pipelineId" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "stage" TEXT NOT NULL DEFAULT 'external',
    "status" TEXT NOT NULL,
    "targetUrl" TEXT,
    "description" TEXT,
    "coverage" DOUBLE PRECISION,
    "allowFailure" BOOLEAN NOT NULL DEFAULT false,
    "protected" BOOLEAN NOT NULL DEFAULT false,
    "retried" BOOLEAN NOT NULL DEFAULT false,
    "userId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "CommitStatus_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CiPipeline_projectId_sha_idx" ON "CiPipeline"("projectId", "sha");

-- CreateIndex
CREATE UNIQUE INDEX "CiPipeline_projectId_iid_key" ON "CiPipeline"("projectId", "iid");

-- CreateIndex
CREATE INDEX "CommitStatus_pipelineId_name_idx" ON "CommitStatus"("pipelineId", "name");

-- CreateIndex
CREATE INDEX "CommitStatus_projectId_sha_idx" ON "CommitStatus"("projectId", "sha");

-- AddForeignKey
ALTER TABLE "CiPipeline" ADD CONSTRAINT "CiPipeline_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CiPipeline" ADD CONSTRAINT "CiPipeline_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommitStatus" ADD CONSTRAINT "CommitStatus_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommitStatus" ADD CONSTRAINT "CommitStatus_pipelineId_fkey" FOREIGN KEY ("pipelineId") REFERENCES "CiPipeline"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommitStatus" ADD CONSTRAINT "CommitStatus_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

