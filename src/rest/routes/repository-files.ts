// repository files and blobs rows of the /api/v4 route table (lib/api/files.rb, blobs of lib/api/repositories.rb)
import { del, get, post, put, type Route } from "../route-helpers.js";

export const repositoryFileRoutes: Route[] = [
  get("/projects/:id/repository/files/:file_path", "projectRepositoryFile"),
  get("/projects/:id/repository/files/:file_path/raw", "projectRepositoryFileRaw", { download: true }),
  get("/projects/:id/repository/files/:file_path/blame", "projectRepositoryFileBlame"),
  post("/projects/:id/repository/files/:file_path", "createRepositoryFile"),
  put("/projects/:id/repository/files/:file_path", "updateRepositoryFile"),
  del("/projects/:id/repository/files/:file_path", "deleteRepositoryFile"),
  get("/projects/:id/repository/blobs/:sha", "projectRepositoryBlob"),
  get("/projects/:id/repository/blobs/:sha/raw", "projectRepositoryBlobRaw", { download: true }),
];
