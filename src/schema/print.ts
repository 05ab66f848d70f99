import { lexicographicSortSchema, printSchema, type GraphQLSchema } from "graphql";
import { publicSchema } from "../graph/index.js";
import { schema } from "./index.js";

const print = (printed: GraphQLSchema) => `${printSchema(lexicographicSortSchema(printed))}\n`;

/** schema.graphql: the REST mirror served on /graphql. */
export const printedSchema = () => print(schema);

/** schema.public.graphql: the public graph (src/graph/). */
export const printedPublicSchema = () => print(publicSchema);
