-- CreateTable
CREATE TABLE "InternalId" (
    "projectId" INTEGER NOT NULL,
    "usage" TEXT NOT NULL,
    "lastValue" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("projectId", "usage")
);

-- CreateTable
CREATE TABLE "Commit" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "parentSha" TEXT,
    "title" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "authorName" TEXT NOT NULL,
    "authorEmail" TEXT NOT NULL,
    "authoredAt" DATETIME NOT NULL,
    "committerName" TEXT NOT NULL,
    "committerEmail" TEXT NOT NULL,
    "additions" INTEGER NOT NULL DEFAULT 0,
    "deletions" INTEGER NOT NULL DEFAULT 0,
    "addedPaths" TEXT NOT NULL DEFAULT '[]',
    "modifiedPaths" TEXT NOT NULL DEFAULT '[]',
    "removedPaths" TEXT NOT NULL DEFAULT '[]',
    "treePaths" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Commit_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Branch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "headSha" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Branch_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProtectedBranch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "allowForcePush" BOOLEAN NOT NULL DEFAULT false,
    "codeOwnerApprovalRequired" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ProtectedBranch_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProtectedBranchAccessLevel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "protectedBranchId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "accessLevel" INTEGER,
    "userId" INTEGER,
    "groupId" INTEGER,
    CONSTRAINT "ProtectedBranchAccessLevel_protectedBranchId_fkey" FOREIGN KEY ("protectedBranchId") REFERENCES "ProtectedBranch" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Issue" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "iid" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "state" TEXT NOT NULL DEFAULT 'opened',
    "confidential" BOOLEAN NOT NULL DEFAULT false,
    "discussionLocked" BOOLEAN,
    "labels" TEXT NOT NULL DEFAULT '[]',
    "dueDate" TEXT,
    "authorId" INTEGER NOT NULL,
    "closedById" INTEGER,
    "closedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Issue_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IssueAssignee" (
    "issueId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    PRIMARY KEY ("issueId", "userId"),
    CONSTRAINT "IssueAssignee_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "MergeRequest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "iid" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "state" TEXT NOT NULL DEFAULT 'opened',
    "sourceBranch" TEXT NOT NULL,
    "targetBranch" TEXT NOT NULL,
    "headSha" TEXT,
    "mergeStatus" TEXT NOT NULL DEFAULT 'can_be_merged',
    "draft" BOOLEAN NOT NULL DEFAULT false,
    "discussionLocked" BOOLEAN,
    "labels" TEXT NOT NULL DEFAULT '[]',
    "squash" BOOLEAN NOT NULL DEFAULT false,
    "shouldRemoveSourceBranch" BOOLEAN,
    "forceRemoveSourceBranch" BOOLEAN,
    "authorId" INTEGER NOT NULL,
    "closedById" INTEGER,
    "closedAt" DATETIME,
    "mergedById" INTEGER,
    "mergedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "MergeRequest_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "MergeRequestAssignee" (
    "mergeRequestId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    PRIMARY KEY ("mergeRequestId", "userId"),
    CONSTRAINT "MergeRequestAssignee_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "MergeRequestReviewer" (
    "mergeRequestId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'unreviewed',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("mergeRequestId", "userId"),
    CONSTRAINT "MergeRequestReviewer_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Note" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "noteableType" TEXT NOT NULL,
    "noteableId" INTEGER NOT NULL,
    "authorId" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "system" BOOLEAN NOT NULL DEFAULT false,
    "internal" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Note_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Snippet" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "visibility" TEXT NOT NULL DEFAULT 'private',
    "authorId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Snippet_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SnippetFile" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "snippetId" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "SnippetFile_snippetId_fkey" FOREIGN KEY ("snippetId") REFERENCES "Snippet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AwardEmoji" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "awardableType" TEXT NOT NULL,
    "awardableId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WebHookDelivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hookId" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "eventUuid" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "WebHookDelivery_hookId_fkey" FOREIGN KEY ("hookId") REFERENCES "GroupHook" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WebHookLog" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hookId" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "urlHash" TEXT,
    "requestHeaders" TEXT NOT NULL,
    "requestData" TEXT NOT NULL,
    "responseHeaders" TEXT NOT NULL,
    "responseBody" TEXT NOT NULL,
    "responseStatus" TEXT NOT NULL,
    "responseCode" INTEGER,
    "executionDuration" REAL NOT NULL,
    "internalErrorMessage" TEXT,
    "idempotencyKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WebHookLog_hookId_fkey" FOREIGN KEY ("hookId") REFERENCES "GroupHook" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RateLimitCounter" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WebHookTokenNotice" (
    "tokenId" INTEGER NOT NULL,
    "interval" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("tokenId", "interval")
);

-- CreateTable
CREATE TABLE "ProjectApprovalSetting" (
    "projectId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "approvalsBeforeMerge" INTEGER NOT NULL DEFAULT 0,
    "resetApprovalsOnPush" BOOLEAN NOT NULL DEFAULT true,
    "selectiveCodeOwnerRemovals" BOOLEAN NOT NULL DEFAULT false,
    "disableOverridingApproversPerMergeRequest" BOOLEAN NOT NULL DEFAULT false,
    "mergeRequestsAuthorApproval" BOOLEAN NOT NULL DEFAULT false,
    "mergeRequestsDisableCommittersApproval" BOOLEAN NOT NULL DEFAULT false,
    "requireReauthenticationToApprove" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ApprovalRule" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "containerId" INTEGER NOT NULL,
    "projectId" INTEGER,
    "name" TEXT NOT NULL,
    "ruleType" TEXT NOT NULL DEFAULT 'regular',
    "reportType" TEXT,
    "approvalsRequired" INTEGER NOT NULL DEFAULT 0,
    "appliesToAllProtectedBranches" BOOLEAN NOT NULL DEFAULT false,
    "sourceRuleId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ApprovalRule_sourceRuleId_fkey" FOREIGN KEY ("sourceRuleId") REFERENCES "ApprovalRule" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApprovalRuleUser" (
    "ruleId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    PRIMARY KEY ("ruleId", "userId"),
    CONSTRAINT "ApprovalRuleUser_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "ApprovalRule" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApprovalRuleGroup" (
    "ruleId" INTEGER NOT NULL,
    "groupId" INTEGER NOT NULL,

    PRIMARY KEY ("ruleId", "groupId"),
    CONSTRAINT "ApprovalRuleGroup_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "ApprovalRule" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApprovalRuleProtectedBranch" (
    "ruleId" INTEGER NOT NULL,
    "protectedBranchId" INTEGER NOT NULL,

    PRIMARY KEY ("ruleId", "protectedBranchId"),
    CONSTRAINT "ApprovalRuleProtectedBranch_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "ApprovalRule" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "mergeRequestId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Project" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "pathLower" TEXT NOT NULL,
    "description" TEXT,
    "visibility" TEXT NOT NULL DEFAULT 'private',
    "defaultBranch" TEXT NOT NULL DEFAULT 'main',
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "namespaceId" INTEGER NOT NULL,
    "creatorId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastActivityAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "issuesAccessLevel" TEXT NOT NULL DEFAULT 'enabled',
    "mergeRequestsAccessLevel" TEXT NOT NULL DEFAULT 'enabled',
    "snippetsAccessLevel" TEXT NOT NULL DEFAULT 'enabled',
    "repositoryAccessLevel" TEXT NOT NULL DEFAULT 'enabled',
    CONSTRAINT "Project_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Project_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Project" ("archived", "createdAt", "creatorId", "defaultBranch", "description", "id", "lastActivityAt", "name", "namespaceId", "path", "pathLower", "updatedAt", "visibility") SELECT "archived", "createdAt", "creatorId", "defaultBranch", "description", "id", "lastActivityAt", "name", "namespaceId", "path", "pathLower", "updatedAt", "visibility" FROM "Project";
DROP TABLE "Project";
ALTER TABLE "new_Project" RENAME TO "Project";
CREATE UNIQUE INDEX "Project_namespaceId_pathLower_key" ON "Project"("namespaceId", "pathLower");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Commit_projectId_sha_key" ON "Commit"("projectId", "sha");

-- CreateIndex
CREATE UNIQUE INDEX "Branch_projectId_name_key" ON "Branch"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ProtectedBranch_projectId_name_key" ON "ProtectedBranch"("projectId", "name");

-- CreateIndex
CREATE INDEX "ProtectedBranchAccessLevel_protectedBranchId_idx" ON "ProtectedBranchAccessLevel"("protectedBranchId");

-- CreateIndex
CREATE INDEX "Issue_authorId_idx" ON "Issue"("authorId");

-- CreateIndex
CREATE UNIQUE INDEX "Issue_projectId_iid_key" ON "Issue"("projectId", "iid");

-- CreateIndex
CREATE INDEX "IssueAssignee_userId_idx" ON "IssueAssignee"("userId");

-- CreateIndex
CREATE INDEX "MergeRequest_projectId_sourceBranch_idx" ON "MergeRequest"("projectId", "sourceBranch");

-- CreateIndex
CREATE INDEX "MergeRequest_projectId_targetBranch_idx" ON "MergeRequest"("projectId", "targetBranch");

-- CreateIndex
CREATE INDEX "MergeRequest_authorId_idx" ON "MergeRequest"("authorId");

-- CreateIndex
CREATE UNIQUE INDEX "MergeRequest_projectId_iid_key" ON "MergeRequest"("projectId", "iid");

-- CreateIndex
CREATE INDEX "MergeRequestAssignee_userId_idx" ON "MergeRequestAssignee"("userId");

-- CreateIndex
CREATE INDEX "MergeRequestReviewer_userId_idx" ON "MergeRequestReviewer"("userId");

-- CreateIndex
CREATE INDEX "Note_noteableType_noteableId_idx" ON "Note"("noteableType", "noteableId");

-- CreateIndex
CREATE INDEX "Note_projectId_idx" ON "Note"("projectId");

-- CreateIndex
CREATE INDEX "Snippet_projectId_idx" ON "Snippet"("projectId");

-- CreateIndex
CREATE INDEX "SnippetFile_snippetId_idx" ON "SnippetFile"("snippetId");

-- CreateIndex
CREATE INDEX "AwardEmoji_awardableType_awardableId_idx" ON "AwardEmoji"("awardableType", "awardableId");

-- CreateIndex
CREATE UNIQUE INDEX "AwardEmoji_userId_awardableType_awardableId_name_key" ON "AwardEmoji"("userId", "awardableType", "awardableId", "name");

-- CreateIndex
CREATE INDEX "WebHookDelivery_status_nextAttemptAt_idx" ON "WebHookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebHookDelivery_hookId_idx" ON "WebHookDelivery"("hookId");

-- CreateIndex
CREATE INDEX "WebHookLog_hookId_createdAt_idx" ON "WebHookLog"("hookId", "createdAt");

-- CreateIndex
CREATE INDEX "RateLimitCounter_expiresAt_idx" ON "RateLimitCounter"("expiresAt");

-- CreateIndex
CREATE INDEX "ApprovalRule_projectId_idx" ON "ApprovalRule"("projectId");

-- CreateIndex
CREATE INDEX "ApprovalRule_sourceRuleId_idx" ON "ApprovalRule"("sourceRuleId");

-- CreateIndex
CREATE UNIQUE INDEX "ApprovalRule_kind_containerId_ruleType_name_key" ON "ApprovalRule"("kind", "containerId", "ruleType", "name");

-- CreateIndex
CREATE INDEX "ApprovalRuleUser_userId_idx" ON "ApprovalRuleUser"("userId");

-- CreateIndex
CREATE INDEX "ApprovalRuleGroup_groupId_idx" ON "ApprovalRuleGroup"("groupId");

-- CreateIndex
CREATE INDEX "ApprovalRuleProtectedBranch_protectedBranchId_idx" ON "ApprovalRuleProtectedBranch"("protectedBranchId");

-- CreateIndex
CREATE INDEX "Approval_userId_idx" ON "Approval"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Approval_mergeRequestId_userId_key" ON "Approval"("mergeRequestId", "userId");

