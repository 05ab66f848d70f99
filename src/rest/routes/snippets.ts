// project snippets rows of the /api/v4 route table (raw answers the first file as text/plain)
import { del, get, post, put, type Route } from "../route-helpers.js";

export const snippetRoutes: Route[] = [
  get("/projects/:id/snippets", "projectSnippets"),
  get("/projects/:id/snippets/:snippet_id", "projectSnippet"),
  get("/projects/:id/snippets/:snippet_id/raw", "projectSnippetRaw", { text: true }),
  post("/projects/:id/snippets", "createProjectSnippet"),
  put("/projects/:id/snippets/:snippet_id", "updateProjectSnippet"),
  del("/projects/:id/snippets/:snippet_id", "deleteProjectSnippet"),
];
