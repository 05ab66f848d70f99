-- GitLab's project name uniqueness per namespace, kept by the database: two requests racing for
-- one name (from any process) cannot both insert it.
CREATE UNIQUE INDEX "Project_namespaceId_name_key" ON "Project"("namespaceId", "name");
