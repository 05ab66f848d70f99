-- The approval configuration is cached too (settings, rules with their links, protected branches
-- with their access levels; src/domain/caches.ts): its tables bump their
-- versions on every write, as the tables of 20261124110000_cache_versions do.
INSERT INTO "CacheVersion" ("name") VALUES ('ProjectApprovalSetting'), ('ApprovalRule'), ('ApprovalRuleUser'), ('ApprovalRuleGroup'), ('ApprovalRuleProtectedBranch'), ('ProtectedBranch'), ('ProtectedBranchAccessLevel');

CREATE TRIGGER "CacheVersion_ProjectApprovalSetting_insert" AFTER INSERT ON "ProjectApprovalSetting"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProjectApprovalSetting'; END;

CREATE TRIGGER "CacheVersion_ProjectApprovalSetting_update" AFTER UPDATE ON "ProjectApprovalSetting"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProjectApprovalSetting'; END;

CREATE TRIGGER "CacheVersion_ProjectApprovalSetting_delete" AFTER DELETE ON "ProjectApprovalSetting"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProjectApprovalSetting'; END;

CREATE TRIGGER "CacheVersion_ApprovalRule_insert" AFTER INSERT ON "ApprovalRule"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRule'; END;

CREATE TRIGGER "CacheVersion_ApprovalRule_update" AFTER UPDATE ON "ApprovalRule"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRule'; END;

CREATE TRIGGER "CacheVersion_ApprovalRule_delete" AFTER DELETE ON "ApprovalRule"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRule'; END;

CREATE TRIGGER "CacheVersion_ApprovalRuleUser_insert" AFTER INSERT ON "ApprovalRuleUser"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRuleUser'; END;

CREATE TRIGGER "CacheVersion_ApprovalRuleUser_update" AFTER UPDATE ON "ApprovalRuleUser"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRuleUser'; END;

CREATE TRIGGER "CacheVersion_ApprovalRuleUser_delete" AFTER DELETE ON "ApprovalRuleUser"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRuleUser'; END;

CREATE TRIGGER "CacheVersion_ApprovalRuleGroup_insert" AFTER INSERT ON "ApprovalRuleGroup"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRuleGroup'; END;

CREATE TRIGGER "CacheVersion_ApprovalRuleGroup_update" AFTER UPDATE ON "ApprovalRuleGroup"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRuleGroup'; END;

CREATE TRIGGER "CacheVersion_ApprovalRuleGroup_delete" AFTER DELETE ON "ApprovalRuleGroup"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRuleGroup'; END;

CREATE TRIGGER "CacheVersion_ApprovalRuleProtectedBranch_insert" AFTER INSERT ON "ApprovalRuleProtectedBranch"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRuleProtectedBranch'; END;

CREATE TRIGGER "CacheVersion_ApprovalRuleProtectedBranch_update" AFTER UPDATE ON "ApprovalRuleProtectedBranch"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRuleProtectedBranch'; END;

CREATE TRIGGER "CacheVersion_ApprovalRuleProtectedBranch_delete" AFTER DELETE ON "ApprovalRuleProtectedBranch"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ApprovalRuleProtectedBranch'; END;

CREATE TRIGGER "CacheVersion_ProtectedBranch_insert" AFTER INSERT ON "ProtectedBranch"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProtectedBranch'; END;

CREATE TRIGGER "CacheVersion_ProtectedBranch_update" AFTER UPDATE ON "ProtectedBranch"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProtectedBranch'; END;

CREATE TRIGGER "CacheVersion_ProtectedBranch_delete" AFTER DELETE ON "ProtectedBranch"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProtectedBranch'; END;

CREATE TRIGGER "CacheVersion_ProtectedBranchAccessLevel_insert" AFTER INSERT ON "ProtectedBranchAccessLevel"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProtectedBranchAccessLevel'; END;

CREATE TRIGGER "CacheVersion_ProtectedBranchAccessLevel_update" AFTER UPDATE ON "ProtectedBranchAccessLevel"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProtectedBranchAccessLevel'; END;

CREATE TRIGGER "CacheVersion_ProtectedBranchAccessLevel_delete" AFTER DELETE ON "ProtectedBranchAccessLevel"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProtectedBranchAccessLevel'; END;
