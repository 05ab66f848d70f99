// Administrators' writes: instance-wide OAuth applications (as REST POST, DELETE /applications/:id
// and POST /applications/:id/renew-secret; the secret only in the creating or renewing payload)
// and feature flags (as REST POST and DELETE /features/:name).
import { createApplication, deleteApplication, renewApplicationSecret } from "../domain/oauth/applications.js";
import { deleteFeature, setFeature } from "../domain/features.js";
import { ApplicationRef, FeatureRef } from "./admin.js";
import { builder } from "./builder.js";
import { recordIdOf } from "./mutation-inputs.js";
import { payload } from "./errors.js";

/** The payload is the only place the secret is ever shown. */
const SECRET = "The OAuth client secret, shown this once.";

builder.relayMutationField(
  "applicationCreate",
  {
    inputFields: (t) => ({
      name: t.string({ required: true }),
      redirectUri: t.string({ required: true, description: "One or more URIs separated by whitespace." }),
      scopes: t.stringList({ required: true }),
      confidential: t.boolean({ description: "true unless given." }),
    }),
  },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "created", () =>
        createApplication(ctx, {
          name: input.name,
          redirect_uri: input.redirectUri,
          scopes: input.scopes.join(" "),
          confidential: input.confidential,
        })),
  },
  {
    outputFields: (t) => ({
      application: t.field({ type: ApplicationRef, nullable: true, resolve: (result) => result.created }),
      secret: t.string({ nullable: true, description: SECRET, resolve: (result) => result.created?.secret ?? null }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "applicationRenewSecret",
  { inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the application." }) }) },
  { resolve: (_root, { input }, ctx) => payload(ctx, "created", () => renewApplicationSecret(ctx, recordIdOf(input.id, "Application"))) },
  {
    outputFields: (t) => ({
      application: t.field({ type: ApplicationRef, nullable: true, resolve: (result) => result.created }),
      secret: t.string({ nullable: true, description: SECRET, resolve: (result) => result.created?.secret ?? null }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "applicationDelete",
  { inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the application." }) }) },
  { resolve: (_root, { input }, ctx) => payload(ctx, "deleted", () => deleteApplication(ctx, recordIdOf(input.id, "Application"))) },
  { outputFields: (t) => ({ errors: t.stringList({ resolve: (result) => result.errors }) }) },
);

builder.relayMutationField(
  "featureSet",
  {
    inputFields: (t) => ({
      name: t.string({ required: true }),
      value: t.string({ required: true, description: "true or 100 turn it on, false or 0 off." }),
    }),
  },
  { resolve: (_root, { input }, ctx) => payload(ctx, "feature", () => setFeature(ctx, input.name, input.value)) },
  {
    outputFields: (t) => ({
      feature: t.field({ type: FeatureRef, nullable: true, resolve: (result) => result.feature }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "featureDelete",
  { inputFields: (t) => ({ name: t.string({ required: true, description: "The flag's default applies again." }) }) },
  { resolve: (_root, { input }, ctx) => payload(ctx, "deleted", () => deleteFeature(ctx, input.name)) },
  { outputFields: (t) => ({ errors: t.stringList({ resolve: (result) => result.errors }) }) },
);
