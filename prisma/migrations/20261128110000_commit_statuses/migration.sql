-- Commit statuses posted from outside CI and the external pipelines GitLab wraps them in
-- CreateTable
CREATE TABLE "CiPipeline" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "iid" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "protected" BOOLEAN NOT NULL DEFAULT false,
    "source" TEXT NOT NULL DEFAULT 'external',
    "status" TEXT NOT NULL DEFAULT 'created',
    "userId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CiPipeline_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CiPipeline_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CommitStatus" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "pipelineId" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "stage" TEXT NOT NULL DEFAULT 'external',
    "status" TEXT NOT NULL,
    "targetUrl" TEXT,
    "description" TEXT,
    "coverage" REAL,
    "allowFailure" BOOLEAN NOT NULL DEFAULT false,
    "protected" BOOLEAN NOT NULL DEFAULT false,
    "retried" BOOLEAN NOT NULL DEFAULT false,
    "userId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "CommitStatus_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CommitStatus_pipelineId_fkey" FOREIGN KEY ("pipelineId") REFERENCES "CiPipeline" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CommitStatus_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "CiPipeline_projectId_sha_idx" ON "CiPipeline"("projectId", "sha");

-- CreateIndex
CREATE UNIQUE INDEX "CiPipeline_projectId_iid_key" ON "CiPipeline"("projectId", "iid");

-- CreateIndex
CREATE INDEX "CommitStatus_pipelineId_name_idx" ON "CommitStatus"("pipelineId", "name");

-- CreateIndex
CREATE INDEX "CommitStatus_projectId_sha_idx" ON "CommitStatus"("projectId", "sha");

