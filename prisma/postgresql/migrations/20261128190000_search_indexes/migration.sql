-- Search (GitLab's basic search): trigram GIN indexes (pg_trgm, a trusted extension since
-- PostgreSQL 13) that serve the case-insensitive substring matches (ILIKE '%term%') over the
-- title and description of issues and merge requests, as GitLab indexes them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "Issue_title_trgm_idx" ON "Issue" USING gin ("title" gin_trgm_ops);
CREATE INDEX "Issue_description_trgm_idx" ON "Issue" USING gin ("description" gin_trgm_ops);
CREATE INDEX "MergeRequest_title_trgm_idx" ON "MergeRequest" USING gin ("title" gin_trgm_ops);
CREATE INDEX "MergeRequest_description_trgm_idx" ON "MergeRequest" USING gin ("description" gin_trgm_ops);
