import { defineConfig } from "vitest/config";

export default defineConfig({
  // One graphql instance: Node loads graphql's CommonJS build for the CJS libraries (Pothos,
  // SOFA); make our own imports use the same build instead of graphql's .mjs files.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    globalSetup: ["./test/helpers/global-setup.ts"],
    include: ["test/**/*.test.ts"],
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
