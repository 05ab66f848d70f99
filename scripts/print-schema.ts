// Writes schema.graphql (the public graph on /graphql) and schema.rest.graphql (the REST facade's
// schema), the printed GraphQL schemas (committed; a test fails when either is stale).
import { writeFileSync } from "node:fs";
import { printedPublicSchema, printedRestSchema } from "../src/schema/print.js";

writeFileSync(new URL("../schema.graphql", import.meta.url), printedPublicSchema());
writeFileSync(new URL("../schema.rest.graphql", import.meta.url), printedRestSchema());
console.log("schema.graphql and schema.rest.graphql written");
