// Writes schema.graphql, the printed GraphQL schema (committed; a test fails when it is stale).
import { writeFileSync } from "node:fs";
import { printedSchema } from "../src/schema/print.js";

writeFileSync(new URL("../schema.graphql", import.meta.url), printedSchema());
console.log("schema.graphql written");
