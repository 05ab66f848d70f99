// Records the fuzz requests can name: a group, a project with a README and a second branch, an
// issue, a merge request, notes, a snippet, hooks, a topic, a tag, an award emoji, an approval
// rule, an application; and the actors (anonymous, a regular user, a project member, the admin).
// Everything is created over HTTP through the API itself, as root.
import type { Actor, PathValues } from "./generator.js";
import type { Send } from "./runner.js";

export interface Fixtures {
  actors: Actor[];
  pathValues: PathValues;
  /** fixture requests that did not answer 2xx (the run goes on; fewer ids exist) */
  problems: string[];
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function createFixtures(send: Send, rootToken: string): Promise<Fixtures> {
  const problems: string[] = [];
  const tag = Date.now().toString(36);
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const headers: Record<string, string> = { "PRIVATE-TOKEN": rootToken };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await send({ method, url: `/api/v4${path}`, headers, body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)) });
    if (response.status >= 300) {
      problems.push(`${method} ${path}: ${response.status} ${response.text.slice(0, 200)}`);
      return {};
    }
    return response.text ? JSON.parse(response.text) : {};
  };
  const user = async (name: string) => {
    const created = await call("POST", "/users", { username: `${name}_${tag}`, name, email: `${name}_${tag}@example.com`, password: "fuzz-password-123" });
    const token = await call("POST", `/users/${created.id}/personal_access_tokens`, { name: "fuzz", scopes: ["api"] });
    return { id: String(created.id), token: token.token as string | undefined, tokenId: String(token.id) };
  };
  const regular = await user("fuzz_regular");
  const member = await user("fuzz_member");
  // /users/:id routes block, ban, deactivate and delete: they get a user of their own, not an actor
  const target = await user("fuzz_target");
  const group = await call("POST", "/groups", { name: `fuzz-${tag}`, path: `fuzz-${tag}`, visibility: "public" });
  const project = await call("POST", "/projects", { name: `fuzz-${tag}`, namespace_id: group.id, initialize_with_readme: true, visibility: "public" });
  const p = `/projects/${project.id}`;
  await call("POST", `${p}/members`, { user_id: Number(member.id), access_level: 30 });
  await call("POST", `/groups/${group.id}/members`, { user_id: Number(member.id), access_level: 30 });
  await call("POST", `${p}/repository/branches`, { branch: "feature", ref: "main" });
  const commit = await call("POST", `${p}/repository/commits`, {
    branch: "feature", commit_message: "fuzz", actions: [{ action: "create", file_path: "fuzz.txt", content: "fuzz\n" }],
  });
  await call("POST", `${p}/repository/tags`, { tag_name: "v1", ref: "main" });
  const issue = await call("POST", `${p}/issues`, { title: "fuzz issue" });
  const mr = await call("POST", `${p}/merge_requests`, { source_branch: "feature", target_branch: "main", title: "fuzz mr" });
  const note = await call("POST", `${p}/issues/${issue.iid}/notes`, { body: "fuzz note" });
  const discussion = await call("POST", `${p}/merge_requests/${mr.iid}/discussions`, { body: "fuzz discussion" });
  const snippet = await call("POST", `${p}/snippets`, { title: "fuzz", file_name: "a.txt", content: "a", visibility: "public" });
  const mrNote = await call("POST", `${p}/merge_requests/${mr.iid}/notes`, { body: "fuzz mr note" });
  const snippetNote = await call("POST", `${p}/snippets/${snippet.id}/notes`, { body: "fuzz snippet note" });
  const issueDiscussion = await call("POST", `${p}/issues/${issue.iid}/discussions`, { body: "fuzz issue discussion" });
  const snippetDiscussion = await call("POST", `${p}/snippets/${snippet.id}/discussions`, { body: "fuzz snippet discussion" });
  const mrAward = await call("POST", `${p}/merge_requests/${mr.iid}/award_emoji`, { name: "thumbsup" });
  const snippetAward = await call("POST", `${p}/snippets/${snippet.id}/award_emoji`, { name: "thumbsup" });
  const noteAward = await call("POST", `${p}/issues/${issue.iid}/notes/${note.id}/award_emoji`, { name: "thumbsup" });
  const mrRule = await call("POST", `${p}/merge_requests/${mr.iid}/approval_rules`, { name: "fuzz mr rule", approvals_required: 1 });
  await call("POST", "/features/approval_group_rules", { value: true }); // group approval rules answer 404 without it
  const groupRule = await call("POST", `/groups/${group.id}/approval_rules`, { name: "fuzz group rule", approvals_required: 1 });
  const award = await call("POST", `${p}/issues/${issue.iid}/award_emoji`, { name: "thumbsup" });
  const hook = await call("POST", `${p}/hooks`, { url: "https://example.com/fuzz-hook", push_events: true });
  const groupHook = await call("POST", `/groups/${group.id}/hooks`, { url: "https://example.com/fuzz-group-hook" });
  await call("PUT", `/groups/${group.id}/hooks/${groupHook.id}/url_variables/k1`, { value: "v" });
  await call("PUT", `/groups/${group.id}/hooks/${groupHook.id}/custom_headers/k1`, { value: "v" });
  const rule = await call("POST", `${p}/approval_rules`, { name: "fuzz rule", approvals_required: 1 });
  await call("POST", `${p}/protected_branches`, { name: "main" });
  const topic = await call("POST", "/topics", { name: `fuzz-${tag}`, title: "Fuzz" });
  const application = await call("POST", "/applications", { name: "fuzz", redirect_uri: "https://example.com/cb", scopes: "api" });
  const projectToken = await call("POST", `${p}/access_tokens`, { name: "fuzz", scopes: ["api"], expires_at: inDays(30) });
  await call("POST", "/features/fuzz_flag", { value: true });

  const ids = (...values: unknown[]) => values.filter((v) => v !== undefined && v !== null && v !== "undefined").map(String);
  const pathValues: PathValues = {
    // mostly numeric ids: a generated PUT may rename or transfer them (their paths then answer 301 or 404)
    "projects:id": ids(project.id, project.id, project.id, project.path_with_namespace),
    "groups:id": ids(group.id, group.id, group.id, group.full_path),
    "users:id": ids(target.id),
    "topics:id": ids(topic.id),
    "applications:id": ids(application.id),
    "personal_access_tokens:id": ids(regular.tokenId),
    "features:name": ["fuzz_flag"],
    "groups:hook_id": ids(groupHook.id),
    "projects:hook_id": ids(hook.id),
    id: ids(project.id),
    user_id: ids(member.id, regular.id),
    issue_iid: ids(issue.iid),
    merge_request_iid: ids(mr.iid),
    note_id: ids(note.id),
    "merge_requests/notes:note_id": ids(mrNote.id),
    "snippets/notes:note_id": ids(snippetNote.id),
    "issues/discussions:discussion_id": ids(issueDiscussion.id),
    "snippets/discussions:discussion_id": ids(snippetDiscussion.id),
    "merge_requests/award_emoji:award_id": ids(mrAward.id),
    "snippets/award_emoji:award_id": ids(snippetAward.id),
    "notes/award_emoji:award_id": ids(noteAward.id),
    "merge_requests/approval_rules:approval_rule_id": ids(mrRule.id),
    "groups/approval_rules:approval_rule_id": ids(groupRule.id),
    snippet_id: ids(snippet.id),
    award_id: ids(award.id),
    approval_rule_id: ids(rule.id),
    discussion_id: ids(discussion.id),
    token_id: ids(projectToken.id),
    branch: ["main", "feature"],
    sha: ids("main", commit.id),
    tag_name: ["v1"],
    name: ["main"],
    key: ["k1"],
    trigger: ["push_events"],
  };
  const actors: Actor[] = [
    { name: "anonymous" },
    { name: "regular user", token: regular.token },
    { name: "project member", token: member.token },
    { name: "admin", token: rootToken },
  ];
  return { actors, pathValues, problems };
}
