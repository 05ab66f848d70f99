import { instanceMetadata, type InstanceMetadata } from "../domain/instance/metadata.js";
import { builder } from "./builder.js";
import * as route from "../rest/route.js";

/** GitLab's Kas entity (the agent server for Kubernetes; never enabled here). */
const Kas = builder.objectRef<InstanceMetadata["kas"]>("Kas").implement({
  fields: (t) => ({
    enabled: t.exposeBoolean("enabled"),
    externalUrl: t.exposeString("externalUrl", { nullable: true }),
    version: t.exposeString("version", { nullable: true }),
  }),
});

/** GitLab's Metadata entity (GET /version; GraphQL `metadata`). */
const Metadata = builder.objectRef<InstanceMetadata>("Metadata").implement({
  fields: (t) => ({
    version: t.exposeString("version"),
    revision: t.exposeString("revision"),
    kas: t.field({ type: Kas, resolve: (metadata) => metadata.kas }),
    enterprise: t.exposeBoolean("enterprise"),
  }),
});

builder.queryFields((t) => ({
  metadata: t.field({
    type: Metadata,
    // /metadata is GitLab's newer name for the same answer
    extensions: { rest: [route.get("/version"), route.get("/metadata")], access: "authenticated" },
    resolve: (_root, _args, ctx) => instanceMetadata(ctx),
  }),
}));
