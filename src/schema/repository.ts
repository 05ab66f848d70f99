// GraphQL types and root fields: repository
import { builder } from "./builder.js";

void builder;
