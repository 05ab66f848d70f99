// Writes schema.graphql (the REST mirror on /graphql) and schema.public.graphql (the public graph),
// the printed GraphQL schemas (committed; a test fails when either is stale).
import { writeFileSync } from "node:fs";
import { printedPublicSchema, printedSchema } from "../src/schema/print.js";

writeFileSync(new URL("../schema.graphql", import.meta.url), printedSchema());
writeFileSync(new URL("../schema.public.graphql", import.meta.url), printedPublicSchema());
console.log("schema.graphql and schema.public.graphql written");
