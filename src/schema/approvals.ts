// GraphQL types and root fields: approvals
import { builder } from "./builder.js";

void builder;
