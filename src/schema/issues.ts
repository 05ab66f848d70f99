// GraphQL types and root fields: issues
import { builder } from "./builder.js";

void builder;
