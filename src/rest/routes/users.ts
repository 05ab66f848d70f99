// Users (lib/api/users.rb, and projects.rb's GET /users/:user_id/projects). Block, unblock, ban,
// unban, deactivate and activate answer 201 with true, false or null, as GitLab's do.
import { del, get, post, put, type Route } from "../route-helpers.js";

export const userRoutes: Route[] = [
  get("/user", "currentUser"),
  get("/users", "users"),
  get("/users/:id", "user"),
  post("/users", "createUser", { files: ["avatar"] }),
  put("/users/:id", "updateUser", { files: ["avatar"] }),
  del("/users/:id", "deleteUser"),
  post("/users/:id/block", "blockUser"),
  post("/users/:id/unblock", "unblockUser"),
  post("/users/:id/ban", "banUser"),
  post("/users/:id/unban", "unbanUser"),
  post("/users/:id/deactivate", "deactivateUser"),
  post("/users/:id/activate", "activateUser"),
  get("/users/:user_id/projects", "userProjects"),
  get("/users/:user_id/memberships", "userMemberships"),
];
