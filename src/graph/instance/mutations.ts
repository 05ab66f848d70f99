// Administrators' writes: instance-wide OAuth applications (as REST POST, DELETE /applications/:id
// and POST /applications/:id/renew-secret; the secret only in the creating or renewing payload)
// and feature flags (as REST POST and DELETE /features/:name).
import { createApplication, deleteApplication, findApplication, renewApplicationSecret, type ApplicationWithSecret } from "../../domain/oauth/applications.js";
import { deleteFeature, setFeature } from "../../domain/features/flags.js";
import { ApplicationRef, FeatureRef } from "./types.js";
import { recordIdOf } from "../shared/mutation-inputs.js";
import { payloadMutation, type PayloadFieldBuilder } from "../shared/payload-mutation.js";

const application = { field: "application", type: ApplicationRef };

/** The payload is the only place the secret is ever shown. */
const secretField = (t: PayloadFieldBuilder<ApplicationWithSecret>) => ({
  secret: t.string({ nullable: true, description: "The OAuth client secret, shown this once.", resolve: (p) => p.result?.secret ?? null }),
});

payloadMutation("applicationCreate", {
  inputFields: (t) => ({
    name: t.string({ required: true }),
    redirectUri: t.string({ required: true, description: "One or more URIs separated by whitespace." }),
    scopes: t.stringList({ required: true }),
    confidential: t.boolean({ description: "true unless given." }),
  }),
  write: (input, ctx) =>
    createApplication(ctx, { name: input.name, redirect_uri: input.redirectUri, scopes: input.scopes.join(" "), confidential: input.confidential }),
  returns: application,
  extraFields: secretField,
});

payloadMutation("applicationRenewSecret", {
  inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the application." }) }),
  write: async (input, ctx) => renewApplicationSecret(ctx, await findApplication(ctx, recordIdOf(input.id, "Application"))),
  returns: application,
  extraFields: secretField,
});

payloadMutation("applicationDelete", {
  inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the application." }) }),
  write: async (input, ctx) => deleteApplication(ctx, await findApplication(ctx, recordIdOf(input.id, "Application"))),
});

payloadMutation("featureSet", {
  inputFields: (t) => ({
    name: t.string({ required: true }),
    value: t.string({ required: true, description: "true or 100 turn it on, false or 0 off." }),
  }),
  write: (input, ctx) => setFeature(ctx, input.name, input.value),
  returns: { field: "feature", type: FeatureRef },
});

payloadMutation("featureDelete", {
  inputFields: (t) => ({ name: t.string({ required: true, description: "The flag's default applies again." }) }),
  write: (input, ctx) => deleteFeature(ctx, input.name),
});
