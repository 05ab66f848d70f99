import { lexicographicSortSchema, printSchema } from "graphql";
import { schema } from "./index.js";

export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
