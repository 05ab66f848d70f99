-- The issue list indexes carry the order's tie-breaker (id) and the columns of the
-- confidentiality filter (confidential, authorId): a list's capped count (up to 10,001 rows)
-- then reads the index alone instead of visiting each row (1.9 ms -> 0.7 ms at 10,001 rows).
DROP INDEX "Issue_projectId_createdAt_idx";
DROP INDEX "Issue_projectId_updatedAt_idx";
DROP INDEX "Issue_projectId_state_createdAt_idx";
CREATE INDEX "Issue_projectId_createdAt_id_confidential_authorId_idx" ON "Issue"("projectId", "createdAt", "id", "confidential", "authorId");
CREATE INDEX "Issue_projectId_updatedAt_id_confidential_authorId_idx" ON "Issue"("projectId", "updatedAt", "id", "confidential", "authorId");
CREATE INDEX "Issue_projectId_state_createdAt_id_confidential_authorId_idx" ON "Issue"("projectId", "state", "createdAt", "id", "confidential", "authorId");
