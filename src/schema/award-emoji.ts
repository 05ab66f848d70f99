// GraphQL types and root fields: award-emoji
import { builder } from "./builder.js";

void builder;
