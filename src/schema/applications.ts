// Instance-wide OAuth applications (administrators only). GitLab's entities: Application, and
// ApplicationWithSecret for the create and renew-secret answers (the only time the secret is shown).
import {
  createApplication, deleteApplication, findApplication, listApplications, renewApplicationSecret, type ApplicationWithSecret,
} from "../domain/oauth/applications.js";
import type { Application as ApplicationRow } from "../generated/prisma/client.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const applicationFields = (t: PothosSchemaTypes.ObjectFieldBuilder<any, ApplicationRow>) => ({
  id: t.exposeInt("id"),
  application_id: t.exposeString("uid"),
  application_name: t.exposeString("name"),
  callback_url: t.exposeString("redirectUri"),
  confidential: t.exposeBoolean("confidential"),
});

export const Application = builder.objectRef<ApplicationRow>("Application").implement({
  fields: (t) => applicationFields(t as any),
});

export const ApplicationWithSecretRef = builder.objectRef<ApplicationWithSecret>("ApplicationWithSecret").implement({
  fields: (t) => ({
    ...applicationFields(t as any),
    secret: t.exposeString("secret"),
  }),
});

builder.queryFields((t) => ({
  applications: t.field({
    extensions: { rest: route.get("/applications"), access: "admin" },
    type: [Application],
    args: { ...pageArgs },
    resolve: async (_r, args, ctx) => rowsOf(ctx, await listApplications(ctx, args)),
  }),
}));

builder.mutationFields((t) => ({
  // name, redirect_uri and scopes are required, but checked by the domain function so that the
  // answer is Grape's ("scopes is missing, scopes is empty") on REST and GraphQL alike.
  createApplication: t.field({
    // create and renew-secret answer 200, as the spec says
    extensions: { rest: route.post("/applications", { status: 200 }), access: "admin" },
    type: ApplicationWithSecretRef,
    args: {
      name: t.arg.string({ required: false }),
      redirect_uri: t.arg.string({ required: false }),
      scopes: t.arg.string({ required: false }),
      confidential: t.arg.boolean({ required: false }),
    },
    resolve: (_r, args, ctx) => createApplication(ctx, args),
  }),
  deleteApplication: t.boolean({
    extensions: { rest: route.del("/applications/:id"), access: "admin" },
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => deleteApplication(ctx, await findApplication(ctx, args.id)),
  }),
  renewApplicationSecret: t.field({
    extensions: { rest: route.post("/applications/:id/renew-secret", { status: 200 }), access: "admin" },
    type: ApplicationWithSecretRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => renewApplicationSecret(ctx, await findApplication(ctx, args.id)),
  }),
}));
