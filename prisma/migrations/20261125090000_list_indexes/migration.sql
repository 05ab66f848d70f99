-- Indexes for every list's filter and order, so that a page costs the same in a table of any size.
CREATE INDEX "Project_namespaceId_idx" ON "Project"("namespaceId");

CREATE INDEX "Issue_projectId_createdAt_idx" ON "Issue"("projectId", "createdAt");
CREATE INDEX "Issue_projectId_updatedAt_idx" ON "Issue"("projectId", "updatedAt");
CREATE INDEX "Issue_projectId_state_createdAt_idx" ON "Issue"("projectId", "state", "createdAt");

CREATE INDEX "MergeRequest_projectId_createdAt_idx" ON "MergeRequest"("projectId", "createdAt");
CREATE INDEX "MergeRequest_projectId_updatedAt_idx" ON "MergeRequest"("projectId", "updatedAt");
CREATE INDEX "MergeRequest_projectId_state_createdAt_idx" ON "MergeRequest"("projectId", "state", "createdAt");

DROP INDEX "Note_noteableType_noteableId_idx";
CREATE INDEX "Note_noteableType_noteableId_createdAt_idx" ON "Note"("noteableType", "noteableId", "createdAt");
CREATE INDEX "Note_noteableType_noteableId_updatedAt_idx" ON "Note"("noteableType", "noteableId", "updatedAt");
