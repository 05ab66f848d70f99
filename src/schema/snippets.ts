// GraphQL types and root fields: snippets
import { builder } from "./builder.js";

void builder;
