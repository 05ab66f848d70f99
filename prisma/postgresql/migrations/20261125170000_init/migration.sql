-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "username" TEXT NOT NULL,
    "usernameLower" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'active',
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "userType" TEXT NOT NULL DEFAULT 'human',
    "passwordDigest" TEXT,
    "bio" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Namespace" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "fullPath" TEXT NOT NULL,
    "fullPathLower" TEXT NOT NULL,
    "traversalIds" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "visibility" TEXT NOT NULL DEFAULT 'private',
    "requestAccessEnabled" BOOLEAN NOT NULL DEFAULT true,
    "avatarPath" TEXT,
    "parentId" INTEGER,
    "ownerId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Namespace_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GroupMember" (
    "id" SERIAL NOT NULL,
    "groupId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "accessLevel" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" INTEGER,

    CONSTRAINT "GroupMember_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Project" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "pathLower" TEXT NOT NULL,
    "description" TEXT,
    "visibility" TEXT NOT NULL DEFAULT 'private',
    "defaultBranch" TEXT NOT NULL DEFAULT 'main',
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "namespaceId" INTEGER NOT NULL,
    "creatorId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "lastActivityAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "issuesAccessLevel" TEXT NOT NULL DEFAULT 'enabled',
    "mergeRequestsAccessLevel" TEXT NOT NULL DEFAULT 'enabled',
    "snippetsAccessLevel" TEXT NOT NULL DEFAULT 'enabled',
    "repositoryAccessLevel" TEXT NOT NULL DEFAULT 'enabled',

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProjectMember" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "accessLevel" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" INTEGER,

    CONSTRAINT "ProjectMember_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RedirectRoute" (
    "id" SERIAL NOT NULL,
    "pathLower" TEXT NOT NULL,
    "projectId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RedirectRoute_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AccessToken" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "digest" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'personal',
    "resourceId" INTEGER,
    "expiresAt" TIMESTAMP(3),
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "lastUsedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccessToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FeatureFlag" (
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FeatureFlag_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "Application" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "secretDigest" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "confidential" BOOLEAN NOT NULL DEFAULT true,
    "ownerId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Topic" (
    "id" SERIAL NOT NULL,
    "organizationId" INTEGER NOT NULL DEFAULT 1,
    "name" TEXT NOT NULL,
    "nameLower" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "avatarPath" TEXT,
    "totalProjectsCount" INTEGER NOT NULL DEFAULT 0,
    "nonPrivateProjectsCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Topic_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProjectTopic" (
    "projectId" INTEGER NOT NULL,
    "topicId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ProjectTopic_pkey" PRIMARY KEY ("projectId","topicId")
);

-- CreateTable
CREATE TABLE "GroupHook" (
    "id" SERIAL NOT NULL,
    "uuid" TEXT NOT NULL,
    "groupId" INTEGER NOT NULL,
    "encryptedUrl" TEXT NOT NULL,
    "encryptedToken" TEXT,
    "encryptedUrlVariables" TEXT,
    "encryptedCustomHeaders" TEXT,
    "name" TEXT,
    "description" TEXT,
    "pushEvents" BOOLEAN NOT NULL DEFAULT true,
    "tagPushEvents" BOOLEAN NOT NULL DEFAULT false,
    "mergeRequestsEvents" BOOLEAN NOT NULL DEFAULT false,
    "repositoryUpdateEvents" BOOLEAN NOT NULL DEFAULT false,
    "issuesEvents" BOOLEAN NOT NULL DEFAULT false,
    "confidentialIssuesEvents" BOOLEAN NOT NULL DEFAULT false,
    "noteEvents" BOOLEAN NOT NULL DEFAULT false,
    "confidentialNoteEvents" BOOLEAN NOT NULL DEFAULT false,
    "pipelineEvents" BOOLEAN NOT NULL DEFAULT false,
    "wikiPageEvents" BOOLEAN NOT NULL DEFAULT false,
    "jobEvents" BOOLEAN NOT NULL DEFAULT false,
    "deploymentEvents" BOOLEAN NOT NULL DEFAULT false,
    "featureFlagEvents" BOOLEAN NOT NULL DEFAULT false,
    "releasesEvents" BOOLEAN NOT NULL DEFAULT false,
    "milestoneEvents" BOOLEAN NOT NULL DEFAULT false,
    "subgroupEvents" BOOLEAN NOT NULL DEFAULT false,
    "emojiEvents" BOOLEAN NOT NULL DEFAULT false,
    "resourceAccessTokenEvents" BOOLEAN NOT NULL DEFAULT false,
    "memberEvents" BOOLEAN NOT NULL DEFAULT false,
    "vulnerabilityEvents" BOOLEAN NOT NULL DEFAULT false,
    "projectEvents" BOOLEAN NOT NULL DEFAULT false,
    "pushEventsBranchFilter" TEXT,
    "branchFilterStrategy" TEXT NOT NULL DEFAULT 'wildcard',
    "enableSslVerification" BOOLEAN NOT NULL DEFAULT true,
    "customWebhookTemplate" TEXT,
    "serviceAccessTokensExpirationEnforced" BOOLEAN NOT NULL DEFAULT true,
    "recentFailures" INTEGER NOT NULL DEFAULT 0,
    "disabledUntil" TIMESTAMP(3),
    "lockVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GroupHook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InternalId" (
    "projectId" INTEGER NOT NULL,
    "usage" TEXT NOT NULL,
    "lastValue" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "InternalId_pkey" PRIMARY KEY ("projectId","usage")
);

-- CreateTable
CREATE TABLE "Commit" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "parentSha" TEXT,
    "title" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "authorName" TEXT NOT NULL,
    "authorEmail" TEXT NOT NULL,
    "authoredAt" TIMESTAMP(3) NOT NULL,
    "committerName" TEXT NOT NULL,
    "committerEmail" TEXT NOT NULL,
    "additions" INTEGER NOT NULL DEFAULT 0,
    "deletions" INTEGER NOT NULL DEFAULT 0,
    "addedPaths" TEXT NOT NULL DEFAULT '[]',
    "modifiedPaths" TEXT NOT NULL DEFAULT '[]',
    "removedPaths" TEXT NOT NULL DEFAULT '[]',
    "treePaths" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Commit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Branch" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "headSha" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Branch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProtectedBranch" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "allowForcePush" BOOLEAN NOT NULL DEFAULT false,
    "codeOwnerApprovalRequired" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProtectedBranch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProtectedBranchAccessLevel" (
    "id" SERIAL NOT NULL,
    "protectedBranchId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "accessLevel" INTEGER,
    "userId" INTEGER,
    "groupId" INTEGER,

    CONSTRAINT "ProtectedBranchAccessLevel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Issue" (
    "id" SERIAL NOT NULL,
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
    "closedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Issue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IssueLabel" (
    "issueId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "IssueLabel_pkey" PRIMARY KEY ("issueId","name")
);

-- CreateTable
CREATE TABLE "IssueAssignee" (
    "issueId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "IssueAssignee_pkey" PRIMARY KEY ("issueId","userId")
);

-- CreateTable
CREATE TABLE "MergeRequest" (
    "id" SERIAL NOT NULL,
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
    "closedAt" TIMESTAMP(3),
    "mergedById" INTEGER,
    "mergedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MergeRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MergeRequestLabel" (
    "mergeRequestId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "MergeRequestLabel_pkey" PRIMARY KEY ("mergeRequestId","name")
);

-- CreateTable
CREATE TABLE "MergeRequestAssignee" (
    "mergeRequestId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "MergeRequestAssignee_pkey" PRIMARY KEY ("mergeRequestId","userId")
);

-- CreateTable
CREATE TABLE "MergeRequestReviewer" (
    "mergeRequestId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'unreviewed',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MergeRequestReviewer_pkey" PRIMARY KEY ("mergeRequestId","userId")
);

-- CreateTable
CREATE TABLE "Note" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "noteableType" TEXT NOT NULL,
    "noteableId" INTEGER NOT NULL,
    "authorId" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "system" BOOLEAN NOT NULL DEFAULT false,
    "internal" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Note_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Snippet" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "visibility" TEXT NOT NULL DEFAULT 'private',
    "authorId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Snippet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SnippetFile" (
    "id" SERIAL NOT NULL,
    "snippetId" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SnippetFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AwardEmoji" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "awardableType" TEXT NOT NULL,
    "awardableId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AwardEmoji_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebHookDelivery" (
    "id" SERIAL NOT NULL,
    "hookId" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "eventUuid" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebHookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebHookLog" (
    "id" SERIAL NOT NULL,
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
    "executionDuration" DOUBLE PRECISION NOT NULL,
    "internalErrorMessage" TEXT,
    "idempotencyKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebHookLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateLimitCounter" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RateLimitCounter_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "WebHookTokenNotice" (
    "tokenId" INTEGER NOT NULL,
    "interval" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebHookTokenNotice_pkey" PRIMARY KEY ("tokenId","interval")
);

-- CreateTable
CREATE TABLE "ProjectApprovalSetting" (
    "projectId" INTEGER NOT NULL,
    "approvalsBeforeMerge" INTEGER NOT NULL DEFAULT 0,
    "resetApprovalsOnPush" BOOLEAN NOT NULL DEFAULT true,
    "selectiveCodeOwnerRemovals" BOOLEAN NOT NULL DEFAULT false,
    "disableOverridingApproversPerMergeRequest" BOOLEAN NOT NULL DEFAULT false,
    "mergeRequestsAuthorApproval" BOOLEAN NOT NULL DEFAULT false,
    "mergeRequestsDisableCommittersApproval" BOOLEAN NOT NULL DEFAULT false,
    "requireReauthenticationToApprove" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProjectApprovalSetting_pkey" PRIMARY KEY ("projectId")
);

-- CreateTable
CREATE TABLE "ApprovalRule" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "containerId" INTEGER NOT NULL,
    "projectId" INTEGER,
    "name" TEXT NOT NULL,
    "ruleType" TEXT NOT NULL DEFAULT 'regular',
    "reportType" TEXT,
    "approvalsRequired" INTEGER NOT NULL DEFAULT 0,
    "appliesToAllProtectedBranches" BOOLEAN NOT NULL DEFAULT false,
    "sourceRuleId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApprovalRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApprovalRuleUser" (
    "ruleId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "ApprovalRuleUser_pkey" PRIMARY KEY ("ruleId","userId")
);

-- CreateTable
CREATE TABLE "ApprovalRuleGroup" (
    "ruleId" INTEGER NOT NULL,
    "groupId" INTEGER NOT NULL,

    CONSTRAINT "ApprovalRuleGroup_pkey" PRIMARY KEY ("ruleId","groupId")
);

-- CreateTable
CREATE TABLE "ApprovalRuleProtectedBranch" (
    "ruleId" INTEGER NOT NULL,
    "protectedBranchId" INTEGER NOT NULL,

    CONSTRAINT "ApprovalRuleProtectedBranch_pkey" PRIMARY KEY ("ruleId","protectedBranchId")
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" SERIAL NOT NULL,
    "mergeRequestId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CacheVersion" (
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CacheVersion_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_usernameLower_key" ON "User"("usernameLower");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Namespace_fullPathLower_key" ON "Namespace"("fullPathLower");

-- CreateIndex
CREATE UNIQUE INDEX "Namespace_ownerId_key" ON "Namespace"("ownerId");

-- CreateIndex
CREATE INDEX "Namespace_parentId_idx" ON "Namespace"("parentId");

-- CreateIndex
CREATE INDEX "Namespace_traversalIds_idx" ON "Namespace"("traversalIds");

-- CreateIndex
CREATE INDEX "GroupMember_userId_idx" ON "GroupMember"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "GroupMember_groupId_userId_key" ON "GroupMember"("groupId", "userId");

-- CreateIndex
CREATE INDEX "Project_namespaceId_idx" ON "Project"("namespaceId");

-- CreateIndex
CREATE UNIQUE INDEX "Project_namespaceId_pathLower_key" ON "Project"("namespaceId", "pathLower");

-- CreateIndex
CREATE INDEX "ProjectMember_userId_idx" ON "ProjectMember"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectMember_projectId_userId_key" ON "ProjectMember"("projectId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "RedirectRoute_pathLower_key" ON "RedirectRoute"("pathLower");

-- CreateIndex
CREATE UNIQUE INDEX "AccessToken_digest_key" ON "AccessToken"("digest");

-- CreateIndex
CREATE INDEX "AccessToken_userId_idx" ON "AccessToken"("userId");

-- CreateIndex
CREATE INDEX "AccessToken_kind_resourceId_idx" ON "AccessToken"("kind", "resourceId");

-- CreateIndex
CREATE UNIQUE INDEX "Application_uid_key" ON "Application"("uid");

-- CreateIndex
CREATE INDEX "Application_ownerId_idx" ON "Application"("ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "Topic_organizationId_nameLower_key" ON "Topic"("organizationId", "nameLower");

-- CreateIndex
CREATE INDEX "ProjectTopic_topicId_idx" ON "ProjectTopic"("topicId");

-- CreateIndex
CREATE UNIQUE INDEX "GroupHook_uuid_key" ON "GroupHook"("uuid");

-- CreateIndex
CREATE INDEX "GroupHook_groupId_idx" ON "GroupHook"("groupId");

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
CREATE INDEX "Issue_projectId_createdAt_id_confidential_authorId_idx" ON "Issue"("projectId", "createdAt", "id", "confidential", "authorId");

-- CreateIndex
CREATE INDEX "Issue_projectId_updatedAt_id_confidential_authorId_idx" ON "Issue"("projectId", "updatedAt", "id", "confidential", "authorId");

-- CreateIndex
CREATE INDEX "Issue_projectId_state_createdAt_id_confidential_authorId_idx" ON "Issue"("projectId", "state", "createdAt", "id", "confidential", "authorId");

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
CREATE INDEX "MergeRequest_projectId_createdAt_idx" ON "MergeRequest"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "MergeRequest_projectId_updatedAt_idx" ON "MergeRequest"("projectId", "updatedAt");

-- CreateIndex
CREATE INDEX "MergeRequest_projectId_state_createdAt_idx" ON "MergeRequest"("projectId", "state", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "MergeRequest_projectId_iid_key" ON "MergeRequest"("projectId", "iid");

-- CreateIndex
CREATE INDEX "MergeRequestAssignee_userId_idx" ON "MergeRequestAssignee"("userId");

-- CreateIndex
CREATE INDEX "MergeRequestReviewer_userId_idx" ON "MergeRequestReviewer"("userId");

-- CreateIndex
CREATE INDEX "Note_noteableType_noteableId_createdAt_idx" ON "Note"("noteableType", "noteableId", "createdAt");

-- CreateIndex
CREATE INDEX "Note_noteableType_noteableId_updatedAt_idx" ON "Note"("noteableType", "noteableId", "updatedAt");

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

-- AddForeignKey
ALTER TABLE "Namespace" ADD CONSTRAINT "Namespace_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Namespace"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Namespace" ADD CONSTRAINT "Namespace_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GroupMember" ADD CONSTRAINT "GroupMember_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GroupMember" ADD CONSTRAINT "GroupMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Project" ADD CONSTRAINT "Project_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Project" ADD CONSTRAINT "Project_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectMember" ADD CONSTRAINT "ProjectMember_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectMember" ADD CONSTRAINT "ProjectMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RedirectRoute" ADD CONSTRAINT "RedirectRoute_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccessToken" ADD CONSTRAINT "AccessToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectTopic" ADD CONSTRAINT "ProjectTopic_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectTopic" ADD CONSTRAINT "ProjectTopic_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GroupHook" ADD CONSTRAINT "GroupHook_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Commit" ADD CONSTRAINT "Commit_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Branch" ADD CONSTRAINT "Branch_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProtectedBranch" ADD CONSTRAINT "ProtectedBranch_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProtectedBranchAccessLevel" ADD CONSTRAINT "ProtectedBranchAccessLevel_protectedBranchId_fkey" FOREIGN KEY ("protectedBranchId") REFERENCES "ProtectedBranch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Issue" ADD CONSTRAINT "Issue_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IssueLabel" ADD CONSTRAINT "IssueLabel_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IssueAssignee" ADD CONSTRAINT "IssueAssignee_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MergeRequest" ADD CONSTRAINT "MergeRequest_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MergeRequestLabel" ADD CONSTRAINT "MergeRequestLabel_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MergeRequestAssignee" ADD CONSTRAINT "MergeRequestAssignee_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MergeRequestReviewer" ADD CONSTRAINT "MergeRequestReviewer_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Note" ADD CONSTRAINT "Note_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Snippet" ADD CONSTRAINT "Snippet_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SnippetFile" ADD CONSTRAINT "SnippetFile_snippetId_fkey" FOREIGN KEY ("snippetId") REFERENCES "Snippet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebHookDelivery" ADD CONSTRAINT "WebHookDelivery_hookId_fkey" FOREIGN KEY ("hookId") REFERENCES "GroupHook"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebHookLog" ADD CONSTRAINT "WebHookLog_hookId_fkey" FOREIGN KEY ("hookId") REFERENCES "GroupHook"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalRule" ADD CONSTRAINT "ApprovalRule_sourceRuleId_fkey" FOREIGN KEY ("sourceRuleId") REFERENCES "ApprovalRule"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalRuleUser" ADD CONSTRAINT "ApprovalRuleUser_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "ApprovalRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalRuleGroup" ADD CONSTRAINT "ApprovalRuleGroup_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "ApprovalRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalRuleProtectedBranch" ADD CONSTRAINT "ApprovalRuleProtectedBranch_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "ApprovalRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

