// User agent details (administrators only): the User-Agent and IP address of the request that
// created an issue or a snippet, GitLab's Entities::UserAgentDetail.
import { findIssue } from "../domain/issues/queries.js";
import { findUserAgentDetail } from "../domain/shared/user-agent-details.js";
import { findProjectSnippetToAdminister } from "../domain/snippets/queries.js";
import { builder } from "./builder.js";
import * as route from "../rest/route.js";

const UserAgentDetailEntity = builder.prismaObject("UserAgentDetail", {
  name: "UserAgentDetail",
  fields: (t) => ({
    user_agent: t.exposeString("userAgent"),
    ip_address: t.exposeString("ipAddress"),
    akismet_submitted: t.exposeBoolean("akismetSubmitted"),
  }),
});

builder.queryFields((t) => ({
  issueUserAgentDetail: t.prismaField({
    type: UserAgentDetailEntity,
    // authenticated_as_admin! before the project and the issue are looked up
    extensions: { rest: route.get("/projects/:id/issues/:issue_iid/user_agent_detail"), access: "admin" },
    args: { id: t.arg.id({ required: true }), issue_iid: t.arg.int({ required: true }) },
    resolve: async (_query, _r, args, ctx) => findUserAgentDetail(ctx, "Issue", (await findIssue(ctx, String(args.id), args.issue_iid, "read")).issue.id),
  }),
  projectSnippetUserAgentDetail: t.prismaField({
    type: UserAgentDetailEntity,
    // the snippet endpoints' before-filter (project, snippets feature) comes first: no coarse access
    extensions: { rest: route.get("/projects/:id/snippets/:snippet_id/user_agent_detail") },
    args: { id: t.arg.id({ required: true }), snippet_id: t.arg.int({ required: true }) },
    resolve: async (_query, _r, args, ctx) =>
      findUserAgentDetail(ctx, "Snippet", (await findProjectSnippetToAdminister(ctx, String(args.id), args.snippet_id)).snippet.id),
  }),
}));
