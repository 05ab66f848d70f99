import { defineConfig } from "vitest/config";

export default defineConfig({
  // One graphql instance: Node loads graphql's CommonJS build for the CJS libraries (Pothos,
  // SOFA); make our own imports use the same build instead of graphql's .mjs files.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    globalSetup: ["./test/helpers/global-setup.ts"],
    setupFiles: ["./test/helpers/close-apps.ts"],
    include: ["test/**/*.test.ts"],
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
    pool: "forks",
    // Two files at a time (CI has 2 cores), each worker keeping the app's modules loaded between
    // files: every file starts its own app on its own database, so nothing is shared but code.
    // Re-importing the app per file cost about a quarter of the run.
    maxWorkers: 2,
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
