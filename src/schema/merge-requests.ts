// GraphQL types and root fields: merge-requests
import { builder } from "./builder.js";

void builder;
