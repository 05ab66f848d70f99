import { PrismaClient } from "../generated/prisma/client.js";
import { adapterFactory } from "./adapter.js";

export type Db = PrismaClient;

export function createDb(databaseUrl: string): Db {
  return new PrismaClient({ adapter: adapterFactory(databaseUrl) });
}
