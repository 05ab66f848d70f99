-- Labels become records (project and group labels, priorities per project, subscriptions), and
-- issues and merge requests link to them by id, the links written by the application in the
-- write's transaction. The JSON columns of names and the triggers that copied them go.
CREATE TABLE "Label" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "description" TEXT,
    "projectId" INTEGER,
    "groupId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Label_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Label_title_idx" ON "Label"("title");
CREATE UNIQUE INDEX "Label_projectId_title_key" ON "Label"("projectId", "title");
CREATE UNIQUE INDEX "Label_groupId_title_key" ON "Label"("groupId", "title");
ALTER TABLE "Label" ADD CONSTRAINT "Label_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Label" ADD CONSTRAINT "Label_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "LabelPriority" (
    "projectId" INTEGER NOT NULL,
    "labelId" INTEGER NOT NULL,
    "priority" INTEGER NOT NULL,

    CONSTRAINT "LabelPriority_pkey" PRIMARY KEY ("projectId","labelId")
);
CREATE INDEX "LabelPriority_labelId_idx" ON "LabelPriority"("labelId");
ALTER TABLE "LabelPriority" ADD CONSTRAINT "LabelPriority_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "LabelPriority" ADD CONSTRAINT "LabelPriority_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "LabelSubscription" (
    "labelId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "LabelSubscription_pkey" PRIMARY KEY ("labelId","userId")
);
CREATE INDEX "LabelSubscription_userId_idx" ON "LabelSubscription"("userId");
ALTER TABLE "LabelSubscription" ADD CONSTRAINT "LabelSubscription_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "LabelSubscription" ADD CONSTRAINT "LabelSubscription_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

DROP TRIGGER "IssueLabel_from_insert" ON "Issue";
DROP TRIGGER "IssueLabel_from_update" ON "Issue";
DROP TRIGGER "MergeRequestLabel_from_insert" ON "MergeRequest";
DROP TRIGGER "MergeRequestLabel_from_update" ON "MergeRequest";
DROP FUNCTION "write_issue_labels"();
DROP FUNCTION "write_merge_request_labels"();

-- Existing data: every name a project's issues or merge requests carry becomes a label of that
-- project, in GitLab's default colour for labels created on the fly, and the rows of names
-- (written by the triggers from the JSON columns) become links to it.
INSERT INTO "Label" ("title", "color", "projectId", "createdAt", "updatedAt")
SELECT "name", '#6699cc', "projectId", CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM (
  SELECT "Issue"."projectId", "IssueLabel"."name" FROM "IssueLabel" JOIN "Issue" ON "Issue"."id" = "IssueLabel"."issueId"
  UNION
  SELECT "MergeRequest"."projectId", "MergeRequestLabel"."name" FROM "MergeRequestLabel" JOIN "MergeRequest" ON "MergeRequest"."id" = "MergeRequestLabel"."mergeRequestId"
) AS "used" ORDER BY "projectId", "name";

ALTER TABLE "IssueLabel" ADD COLUMN "labelId" INTEGER;
UPDATE "IssueLabel" SET "labelId" = "Label"."id" FROM "Issue", "Label"
WHERE "Issue"."id" = "IssueLabel"."issueId" AND "Label"."projectId" = "Issue"."projectId" AND "Label"."title" = "IssueLabel"."name";
ALTER TABLE "IssueLabel" DROP CONSTRAINT "IssueLabel_pkey", DROP COLUMN "name", ALTER COLUMN "labelId" SET NOT NULL,
  ADD CONSTRAINT "IssueLabel_pkey" PRIMARY KEY ("issueId", "labelId");
CREATE INDEX "IssueLabel_labelId_issueId_idx" ON "IssueLabel"("labelId", "issueId");
ALTER TABLE "IssueLabel" ADD CONSTRAINT "IssueLabel_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "MergeRequestLabel" ADD COLUMN "labelId" INTEGER;
UPDATE "MergeRequestLabel" SET "labelId" = "Label"."id" FROM "MergeRequest", "Label"
WHERE "MergeRequest"."id" = "MergeRequestLabel"."mergeRequestId" AND "Label"."projectId" = "MergeRequest"."projectId" AND "Label"."title" = "MergeRequestLabel"."name";
ALTER TABLE "MergeRequestLabel" DROP CONSTRAINT "MergeRequestLabel_pkey", DROP COLUMN "name", ALTER COLUMN "labelId" SET NOT NULL,
  ADD CONSTRAINT "MergeRequestLabel_pkey" PRIMARY KEY ("mergeRequestId", "labelId");
CREATE INDEX "MergeRequestLabel_labelId_mergeRequestId_idx" ON "MergeRequestLabel"("labelId", "mergeRequestId");
ALTER TABLE "MergeRequestLabel" ADD CONSTRAINT "MergeRequestLabel_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Issue" DROP COLUMN "labels";
ALTER TABLE "MergeRequest" DROP COLUMN "labels";

-- Issue list counts are kept until the issues change: their labels are rows of their own now;
-- labels themselves are kept by id (the titles issue and merge request entities show).
INSERT INTO "CacheVersion" ("name") VALUES ('IssueLabel'), ('Label');
CREATE CONSTRAINT TRIGGER "CacheVersion_IssueLabel" AFTER INSERT OR UPDATE OR DELETE ON "IssueLabel"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version_at_commit"();
CREATE CONSTRAINT TRIGGER "CacheVersion_Label" AFTER INSERT OR UPDATE OR DELETE ON "Label"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version_at_commit"();
