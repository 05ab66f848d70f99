// Administrators' entry points: the instance-wide OAuth applications (never their secret) and the
// feature flags set on the instance, from the domain functions behind GET /applications and
// GET /features, which refuse everyone else: null for them.
import type { Application } from "../../generated/prisma/client.js";
import { listApplications } from "../../domain/oauth/applications.js";
import { listFeatures, type FeatureView } from "../../domain/features/flags.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";

export const ApplicationRef = builder.objectRef<Application>("Application");

builder.objectType(ApplicationRef, {
  description: "An instance-wide OAuth application.",
  fields: (t) => ({
    id: t.id({ resolve: (app) => `gid://forgeline/Application/${app.id}` }),
    name: t.exposeString("name"),
    applicationId: t.exposeString("uid", { description: "The OAuth client id." }),
    redirectUri: t.exposeString("redirectUri", { description: "One or more URIs separated by whitespace." }),
    scopes: t.stringList({ resolve: (app) => app.scopes.split(/\s+/).filter(Boolean) }),
    confidential: t.exposeBoolean("confidential"),
    createdAt: t.expose("createdAt", { type: "Time" }),
  }),
});

const ApplicationConnection = countedConnection(ApplicationRef, "Application");

const FeatureGateRef = builder.objectRef<FeatureView["gates"][number]>("FeatureGate");

builder.objectType(FeatureGateRef, {
  fields: (t) => ({
    key: t.exposeString("key", { description: "boolean (the only gate Forgeline has)." }),
    value: t.exposeBoolean("value"),
  }),
});

export const FeatureRef = builder.objectRef<FeatureView>("Feature");

builder.objectType(FeatureRef, {
  description: "A feature flag set on the instance.",
  fields: (t) => ({
    name: t.exposeString("name"),
    state: t.exposeString("state", { description: "on or off" }),
    gates: t.field({ type: [FeatureGateRef], resolve: (feature) => feature.gates }),
    defaultEnabled: t.boolean({ nullable: true, description: "null for a flag Forgeline does not define.", resolve: (feature) => feature.definition?.default_enabled ?? null }),
  }),
});

builder.queryFields((t) => ({
  applications: t.connection(
    {
      type: ApplicationRef,
      nullable: true,
      description: "Instance-wide OAuth applications, oldest first (administrators only, else null).",
      resolve: (_root, args, ctx) => orNull(() => offsetConnection(args, (page) => listApplications(ctx, page))),
    },
    ApplicationConnection,
  ),
  features: t.field({
    type: [FeatureRef],
    nullable: true,
    description: "Feature flags set on the instance, by name (administrators only, else null).",
    resolve: (_root, _args, ctx) => orNull(() => listFeatures(ctx)),
  }),
}));
