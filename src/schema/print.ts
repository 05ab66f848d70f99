import { lexicographicSortSchema, printSchema, type GraphQLSchema } from "graphql";
import { publicSchema } from "../graph/index.js";
import { schema } from "./index.js";

const print = (printed: GraphQLSchema) => `${printSchema(lexicographicSortSchema(printed))}\n`;

/** schema.rest.graphql: the REST facade's schema (src/schema/), served on REST_GRAPH_PATH. */
export const printedRestSchema = () => print(schema);

/** schema.graphql: the public graph (src/graph/) on /graphql and /api/graphql. */
export const printedPublicSchema = () => print(publicSchema);
