-- CreateTable
CREATE TABLE "User" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "username" TEXT NOT NULL,
    "usernameLower" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'active',
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "userType" TEXT NOT NULL DEFAULT 'human',
    "passwordDigest" TEXT,
    "bio" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Namespace" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Namespace_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Namespace" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Namespace_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GroupMember" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "groupId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "accessLevel" INTEGER NOT NULL,
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" INTEGER,
    CONSTRAINT "GroupMember_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "GroupMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Project" (
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
    CONSTRAINT "Project_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Project_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProjectMember" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "accessLevel" INTEGER NOT NULL,
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" INTEGER,
    CONSTRAINT "ProjectMember_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProjectMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RedirectRoute" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "pathLower" TEXT NOT NULL,
    "projectId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RedirectRoute_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AccessToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "digest" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'personal',
    "resourceId" INTEGER,
    "expiresAt" DATETIME,
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "lastUsedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AccessToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "FeatureFlag" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "enabled" BOOLEAN NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Application" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "secretDigest" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "confidential" BOOLEAN NOT NULL DEFAULT true,
    "ownerId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Topic" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "organizationId" INTEGER NOT NULL DEFAULT 1,
    "name" TEXT NOT NULL,
    "nameLower" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "avatarPath" TEXT,
    "totalProjectsCount" INTEGER NOT NULL DEFAULT 0,
    "nonPrivateProjectsCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ProjectTopic" (
    "projectId" INTEGER NOT NULL,
    "topicId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("projectId", "topicId"),
    CONSTRAINT "ProjectTopic_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProjectTopic_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GroupHook" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
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
    "disabledUntil" DATETIME,
    "lockVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "GroupHook_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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

