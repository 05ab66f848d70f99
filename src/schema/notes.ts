// GraphQL types and root fields: notes
import { builder } from "./builder.js";

void builder;
