// The domain's floor plan as rules (README.md, "Layout"): checked by test/unit/architecture.test.ts
// and by `npx depcruise --config .dependency-cruiser.cjs src`. Only imports that run count: a type
// import is compiled away and can point anywhere.
const RUNS = ["type-only"];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "domain-imports-nothing-above-it",
      comment: "The domain is what the REST facade, the public graph, the webhook worker and the OAuth pages call; it never calls them.",
      severity: "error",
      from: { path: "^src/domain/" },
      to: {
        path: "^src/(webhooks|graph|rest|schema|oauth|app|server|services|context|worker|web-processes|event-subscribers|graphql-multipart)(/|\\.ts$)",
        dependencyTypesNot: RUNS,
      },
    },
    {
      name: "shared-imports-no-resource",
      comment: "src/domain/shared holds what every resource builds on (access, context, events, pagination, loaders registry).",
      severity: "error",
      from: { path: "^src/domain/shared/" },
      to: { path: "^src/domain/(?!shared/)", dependencyTypesNot: RUNS },
    },
    {
      name: "no-runtime-cycles-in-domain",
      severity: "error",
      from: { path: "^src/domain/" },
      to: { circular: true, dependencyTypesNot: RUNS, viaOnly: { dependencyTypesNot: RUNS } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
