import {
  deleteFeature, listFeatureDefinitions, listFeatures, setFeature,
  type FeatureDefinition, type FeatureView,
} from "../domain/features/flags.js";
import { builder } from "./builder.js";
import * as route from "../rest/route.js";

/** GitLab's Feature::Definition entity. */
const FeatureDefinitionRef = builder.objectRef<FeatureDefinition>("FeatureDefinition").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    feature_issue_url: t.exposeString("feature_issue_url", { nullable: true }),
    introduced_by_url: t.exposeString("introduced_by_url", { nullable: true }),
    rollout_issue_url: t.exposeString("rollout_issue_url", { nullable: true }),
    milestone: t.exposeString("milestone", { nullable: true }),
    log_state_changes: t.exposeBoolean("log_state_changes", { nullable: true }),
    type: t.exposeString("type"),
    group: t.exposeString("group", { nullable: true }),
    default_enabled: t.exposeBoolean("default_enabled"),
  }),
});

/** One gate of a feature: `boolean` with true or false. */
const FeatureGate = builder.objectRef<FeatureView["gates"][number]>("FeatureGate").implement({
  fields: (t) => ({
    key: t.exposeString("key"),
    value: t.field({ type: "JSON", resolve: (gate) => gate.value }),
  }),
});

/** GitLab's Feature entity. */
const Feature = builder.objectRef<FeatureView>("Feature").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    state: t.exposeString("state"),
    gates: t.field({ type: [FeatureGate], resolve: (feature) => feature.gates }),
    definition: t.field({ type: FeatureDefinitionRef, nullable: true, resolve: (feature) => feature.definition }),
  }),
});

builder.queryFields((t) => ({
  features: t.field({
    type: [Feature],
    extensions: { rest: route.get("/features"), access: "admin" },
    resolve: (_root, _args, ctx) => listFeatures(ctx),
  }),
  featureDefinitions: t.field({
    type: [FeatureDefinitionRef],
    extensions: { rest: route.get("/features/definitions"), access: "admin" },
    resolve: (_root, _args, ctx) => listFeatureDefinitions(ctx),
  }),
}));

builder.mutationFields((t) => ({
  setFeature: t.field({
    type: Feature,
    extensions: { rest: route.post("/features/:name"), access: "admin" },
    args: {
      name: t.arg.string({ required: true }),
      /** true or false (booleans or the strings "true"/"false"; "100"/"0" as GitLab) */
      value: t.arg({ type: "JSON", required: true }),
    },
    resolve: (_root, args, ctx) => setFeature(ctx, args.name, args.value),
  }),
  deleteFeature: t.boolean({
    extensions: { rest: route.del("/features/:name"), access: "admin" },
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => deleteFeature(ctx, args.name),
  }),
}));
