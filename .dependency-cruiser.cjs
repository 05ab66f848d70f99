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
      name: "domain-knows-no-surface-types",
      comment: "The domain takes records and its own inputs: it knows no type of the REST facade, the REST schema or the graph, not even in a type import.",
      severity: "error",
      from: { path: "^src/domain/" },
      to: { path: "^src/(rest|schema|graph)/" },
    },
    {
      name: "graph-calls-the-domain-not-the-rest-facade",
      comment: "The public graph reaches records through the domain's finders (findX, findXById), never through the REST routes or the REST schema.",
      severity: "error",
      from: { path: "^src/graph/" },
      to: { path: "^src/(rest|schema)/" },
    },
    {
      name: "rest-facade-does-not-call-the-graph",
      comment: "The REST facade and the public graph are two surfaces over the domain; only the schema printer sees both.",
      severity: "error",
      from: { path: "^src/(rest|schema)/", pathNot: "^src/schema/print\\.ts$" },
      to: { path: "^src/graph/" },
    },
    {
      name: "routes-are-declared-on-root-fields",
      comment: "A REST route is declared once, on its root field (extensions.rest, src/rest/route.ts); the route table is read off the schema, so nothing but the schema and the route declarations' own module makes one.",
      severity: "error",
      from: { pathNot: "^src/(schema|rest)/" },
      to: { path: "^src/rest/route\\.ts$", dependencyTypesNot: RUNS },
    },
    {
      name: "the-rest-schema-uses-only-route-declarations-and-rendering",
      comment: "The REST schema's fields declare their routes (route.ts) and may shape a download (render.ts); matching, params and execution stay in the adapter.",
      severity: "error",
      from: { path: "^src/schema/" },
      to: { path: "^src/rest/(?!route\\.ts$|render\\.ts$)", dependencyTypesNot: RUNS },
    },
    {
      name: "no-record-paths",
      comment: "A record named by id is found by its resource's findXById, never turned back into the REST path of another lookup (issue 32 removed domain/shared/record-paths.ts).",
      severity: "error",
      from: {},
      to: { path: "(^|/)record-paths\\.ts$" },
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
