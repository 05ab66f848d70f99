-- The `labels` filter of issue and merge request lists reads one row per label name instead of
-- every row's JSON array. The rows are written only here, by triggers from the labels column
-- (the entity's value stays there), so they cannot disagree with it.
CREATE TABLE "IssueLabel" (
    "issueId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,

    PRIMARY KEY ("issueId", "name"),
    CONSTRAINT "IssueLabel_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "MergeRequestLabel" (
    "mergeRequestId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,

    PRIMARY KEY ("mergeRequestId", "name"),
    CONSTRAINT "MergeRequestLabel_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

INSERT INTO "IssueLabel" ("issueId", "name")
SELECT DISTINCT "Issue"."id", "names"."value" FROM "Issue", json_each("Issue"."labels") AS "names";

INSERT INTO "MergeRequestLabel" ("mergeRequestId", "name")
SELECT DISTINCT "MergeRequest"."id", "names"."value" FROM "MergeRequest", json_each("MergeRequest"."labels") AS "names";

CREATE TRIGGER "IssueLabel_from_insert" AFTER INSERT ON "Issue"
BEGIN
  INSERT INTO "IssueLabel" ("issueId", "name") SELECT DISTINCT NEW."id", "value" FROM json_each(NEW."labels");
END;

CREATE TRIGGER "IssueLabel_from_update" AFTER UPDATE OF "labels" ON "Issue"
BEGIN
  DELETE FROM "IssueLabel" WHERE "issueId" = NEW."id";
  INSERT INTO "IssueLabel" ("issueId", "name") SELECT DISTINCT NEW."id", "value" FROM json_each(NEW."labels");
END;

CREATE TRIGGER "MergeRequestLabel_from_insert" AFTER INSERT ON "MergeRequest"
BEGIN
  INSERT INTO "MergeRequestLabel" ("mergeRequestId", "name") SELECT DISTINCT NEW."id", "value" FROM json_each(NEW."labels");
END;

CREATE TRIGGER "MergeRequestLabel_from_update" AFTER UPDATE OF "labels" ON "MergeRequest"
BEGIN
  DELETE FROM "MergeRequestLabel" WHERE "mergeRequestId" = NEW."id";
  INSERT INTO "MergeRequestLabel" ("mergeRequestId", "name") SELECT DISTINCT NEW."id", "value" FROM json_each(NEW."labels");
END;
