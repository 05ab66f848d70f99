// The GraphQL schema: every resource module registers its types and root fields on the builder.
import { builder } from "./builder.js";
import "./scalars.js";
import "./users.js";
import "./personal-access-tokens.js";

export const schema = builder.toSchema({ sortSchema: true });
