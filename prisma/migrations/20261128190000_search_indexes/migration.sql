-- Search (GitLab's basic search): trigram full-text indexes over the title and description of
-- issues and merge requests (FTS5's trigram tokenizer answers substring matches of 3 characters
-- or more, case-insensitively). External-content tables: they keep only the index and read the
-- text from "Issue" / "MergeRequest"; the triggers keep them in step. They are derived data:
-- a copy or a restore rebuilds them ('rebuild') rather than copying them.
CREATE VIRTUAL TABLE "IssueSearch" USING fts5("title", "description", content='Issue', content_rowid='id', tokenize='trigram');
INSERT INTO "IssueSearch"("IssueSearch") VALUES ('rebuild');
CREATE TRIGGER "IssueSearch_insert" AFTER INSERT ON "Issue" BEGIN
  INSERT INTO "IssueSearch"(rowid, "title", "description") VALUES (new."id", new."title", new."description");
END;
CREATE TRIGGER "IssueSearch_delete" AFTER DELETE ON "Issue" BEGIN
  INSERT INTO "IssueSearch"("IssueSearch", rowid, "title", "description") VALUES ('delete', old."id", old."title", old."description");
END;
CREATE TRIGGER "IssueSearch_update" AFTER UPDATE OF "title", "description" ON "Issue" BEGIN
  INSERT INTO "IssueSearch"("IssueSearch", rowid, "title", "description") VALUES ('delete', old."id", old."title", old."description");
  INSERT INTO "IssueSearch"(rowid, "title", "description") VALUES (new."id", new."title", new."description");
END;

CREATE VIRTUAL TABLE "MergeRequestSearch" USING fts5("title", "description", content='MergeRequest', content_rowid='id', tokenize='trigram');
INSERT INTO "MergeRequestSearch"("MergeRequestSearch") VALUES ('rebuild');
CREATE TRIGGER "MergeRequestSearch_insert" AFTER INSERT ON "MergeRequest" BEGIN
  INSERT INTO "MergeRequestSearch"(rowid, "title", "description") VALUES (new."id", new."title", new."description");
END;
CREATE TRIGGER "MergeRequestSearch_delete" AFTER DELETE ON "MergeRequest" BEGIN
  INSERT INTO "MergeRequestSearch"("MergeRequestSearch", rowid, "title", "description") VALUES ('delete', old."id", old."title", old."description");
END;
CREATE TRIGGER "MergeRequestSearch_update" AFTER UPDATE OF "title", "description" ON "MergeRequest" BEGIN
  INSERT INTO "MergeRequestSearch"("MergeRequestSearch", rowid, "title", "description") VALUES ('delete', old."id", old."title", old."description");
  INSERT INTO "MergeRequestSearch"(rowid, "title", "description") VALUES (new."id", new."title", new."description");
END;
