-- Labels become records (project and group labels, priorities per project, subscriptions), and
-- issues and merge requests link to them by id, the links written by the application in the
-- write's transaction. The JSON columns of names and the triggers that copied them go.
CREATE TABLE "Label" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "title" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "description" TEXT,
    "projectId" INTEGER,
    "groupId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Label_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Label_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "Label_title_idx" ON "Label"("title");
CREATE UNIQUE INDEX "Label_projectId_title_key" ON "Label"("projectId", "title");
CREATE UNIQUE INDEX "Label_groupId_title_key" ON "Label"("groupId", "title");

CREATE TABLE "LabelPriority" (
    "projectId" INTEGER NOT NULL,
    "labelId" INTEGER NOT NULL,
    "priority" INTEGER NOT NULL,

    PRIMARY KEY ("projectId", "labelId"),
    CONSTRAINT "LabelPriority_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LabelPriority_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "LabelPriority_labelId_idx" ON "LabelPriority"("labelId");

CREATE TABLE "LabelSubscription" (
    "labelId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    PRIMARY KEY ("labelId", "userId"),
    CONSTRAINT "LabelSubscription_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LabelSubscription_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "LabelSubscription_userId_idx" ON "LabelSubscription"("userId");

DROP TRIGGER "IssueLabel_from_insert";
DROP TRIGGER "IssueLabel_from_update";
DROP TRIGGER "MergeRequestLabel_from_insert";
DROP TRIGGER "MergeRequestLabel_from_update";

-- Existing data: every name a project's issues or merge requests carry becomes a label of that
-- project, in GitLab's default colour for labels created on the fly, and the rows of names
-- (written by the triggers from the JSON columns) become links to it.
INSERT INTO "Label" ("title", "color", "projectId", "createdAt", "updatedAt")
SELECT "name", '#6699cc', "projectId", CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM (
  SELECT "Issue"."projectId", "IssueLabel"."name" FROM "IssueLabel" JOIN "Issue" ON "Issue"."id" = "IssueLabel"."issueId"
  UNION
  SELECT "MergeRequest"."projectId", "MergeRequestLabel"."name" FROM "MergeRequestLabel" JOIN "MergeRequest" ON "MergeRequest"."id" = "MergeRequestLabel"."mergeRequestId"
) AS "used" ORDER BY "projectId", "name";

ALTER TABLE "IssueLabel" RENAME TO "IssueLabelName";
ALTER TABLE "MergeRequestLabel" RENAME TO "MergeRequestLabelName";

CREATE TABLE "IssueLabel" (
    "issueId" INTEGER NOT NULL,
    "labelId" INTEGER NOT NULL,

    PRIMARY KEY ("issueId", "labelId"),
    CONSTRAINT "IssueLabel_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "IssueLabel_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "IssueLabel_labelId_issueId_idx" ON "IssueLabel"("labelId", "issueId");

CREATE TABLE "MergeRequestLabel" (
    "mergeRequestId" INTEGER NOT NULL,
    "labelId" INTEGER NOT NULL,

    PRIMARY KEY ("mergeRequestId", "labelId"),
    CONSTRAINT "MergeRequestLabel_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "MergeRequestLabel_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "MergeRequestLabel_labelId_mergeRequestId_idx" ON "MergeRequestLabel"("labelId", "mergeRequestId");

INSERT INTO "IssueLabel" ("issueId", "labelId")
SELECT "IssueLabelName"."issueId", "Label"."id" FROM "IssueLabelName"
JOIN "Issue" ON "Issue"."id" = "IssueLabelName"."issueId"
JOIN "Label" ON "Label"."projectId" = "Issue"."projectId" AND "Label"."title" = "IssueLabelName"."name";

INSERT INTO "MergeRequestLabel" ("mergeRequestId", "labelId")
SELECT "MergeRequestLabelName"."mergeRequestId", "Label"."id" FROM "MergeRequestLabelName"
JOIN "MergeRequest" ON "MergeRequest"."id" = "MergeRequestLabelName"."mergeRequestId"
JOIN "Label" ON "Label"."projectId" = "MergeRequest"."projectId" AND "Label"."title" = "MergeRequestLabelName"."name";

DROP TABLE "IssueLabelName";
DROP TABLE "MergeRequestLabelName";

ALTER TABLE "Issue" DROP COLUMN "labels";
ALTER TABLE "MergeRequest" DROP COLUMN "labels";

-- Issue list counts are kept until the issues change: their labels are rows of their own now;
-- labels themselves are kept by id (the titles issue and merge request entities show).
INSERT INTO "CacheVersion" ("name") VALUES ('IssueLabel'), ('Label');

CREATE TRIGGER "CacheVersion_IssueLabel_insert" AFTER INSERT ON "IssueLabel"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'IssueLabel'; END;

CREATE TRIGGER "CacheVersion_IssueLabel_update" AFTER UPDATE ON "IssueLabel"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'IssueLabel'; END;

CREATE TRIGGER "CacheVersion_IssueLabel_delete" AFTER DELETE ON "IssueLabel"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'IssueLabel'; END;

CREATE TRIGGER "CacheVersion_Label_insert" AFTER INSERT ON "Label"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Label'; END;

CREATE TRIGGER "CacheVersion_Label_update" AFTER UPDATE ON "Label"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Label'; END;

CREATE TRIGGER "CacheVersion_Label_delete" AFTER DELETE ON "Label"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Label'; END;
