-- Cache invalidation across processes: every write to a table whose rows the servers cache
-- (actors, projects, namespaces, memberships) bumps that table's version in the same
-- transaction. Each server compares the versions before it trusts its caches
-- (src/db/table-versions.ts), so a revoked token or a removed member loses access at once.
CREATE TABLE "CacheVersion" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL DEFAULT 0
);

INSERT INTO "CacheVersion" ("name") VALUES ('User'), ('AccessToken'), ('Namespace'), ('Project'), ('ProjectMember'), ('GroupMember'), ('RedirectRoute');

CREATE TRIGGER "CacheVersion_User_insert" AFTER INSERT ON "User"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'User'; END;

CREATE TRIGGER "CacheVersion_User_update" AFTER UPDATE ON "User"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'User'; END;

CREATE TRIGGER "CacheVersion_User_delete" AFTER DELETE ON "User"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'User'; END;

CREATE TRIGGER "CacheVersion_AccessToken_insert" AFTER INSERT ON "AccessToken"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'AccessToken'; END;

-- every column but lastUsedAt, which a token's use writes (at most every 10 minutes)
CREATE TRIGGER "CacheVersion_AccessToken_update" AFTER UPDATE OF "userId", "name", "description", "digest", "scopes", "kind", "resourceId", "expiresAt", "revoked" ON "AccessToken"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'AccessToken'; END;

CREATE TRIGGER "CacheVersion_AccessToken_delete" AFTER DELETE ON "AccessToken"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'AccessToken'; END;

CREATE TRIGGER "CacheVersion_Namespace_insert" AFTER INSERT ON "Namespace"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Namespace'; END;

CREATE TRIGGER "CacheVersion_Namespace_update" AFTER UPDATE ON "Namespace"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Namespace'; END;

CREATE TRIGGER "CacheVersion_Namespace_delete" AFTER DELETE ON "Namespace"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Namespace'; END;

CREATE TRIGGER "CacheVersion_Project_insert" AFTER INSERT ON "Project"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Project'; END;

CREATE TRIGGER "CacheVersion_Project_update" AFTER UPDATE ON "Project"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Project'; END;

CREATE TRIGGER "CacheVersion_Project_delete" AFTER DELETE ON "Project"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Project'; END;

CREATE TRIGGER "CacheVersion_ProjectMember_insert" AFTER INSERT ON "ProjectMember"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProjectMember'; END;

CREATE TRIGGER "CacheVersion_ProjectMember_update" AFTER UPDATE ON "ProjectMember"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProjectMember'; END;

CREATE TRIGGER "CacheVersion_ProjectMember_delete" AFTER DELETE ON "ProjectMember"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProjectMember'; END;

CREATE TRIGGER "CacheVersion_GroupMember_insert" AFTER INSERT ON "GroupMember"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'GroupMember'; END;

CREATE TRIGGER "CacheVersion_GroupMember_update" AFTER UPDATE ON "GroupMember"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'GroupMember'; END;

CREATE TRIGGER "CacheVersion_GroupMember_delete" AFTER DELETE ON "GroupMember"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'GroupMember'; END;

CREATE TRIGGER "CacheVersion_RedirectRoute_insert" AFTER INSERT ON "RedirectRoute"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'RedirectRoute'; END;

CREATE TRIGGER "CacheVersion_RedirectRoute_update" AFTER UPDATE ON "RedirectRoute"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'RedirectRoute'; END;

CREATE TRIGGER "CacheVersion_RedirectRoute_delete" AFTER DELETE ON "RedirectRoute"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'RedirectRoute'; END;
