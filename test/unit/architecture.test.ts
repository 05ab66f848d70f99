// The domain's floor plan, checked on the real import graph (dependency-cruiser over src/): the
// rules of .dependency-cruiser.cjs, and no cycle between resource folders (a folder imports
// another only if that one never imports it back, directly or round about). Type imports do not
// count: they are compiled away.
import { createRequire } from "node:module";
import { cruise, type ICruiseResult, type IModule } from "dependency-cruiser";
import { beforeAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const config = require("../../.dependency-cruiser.cjs");

let result: ICruiseResult;

beforeAll(async () => {
  const cruised = await cruise(["src"], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } });
  result = cruised.output as ICruiseResult;
}, 120_000);

/** `src/domain/<folder>/...` → folder; anything else is not a resource folder. */
const folderOf = (path: string) => path.match(/^src\/domain\/([^/]+)\//)?.[1] ?? null;

const runs = (types: readonly string[]) => !types.includes("type-only");

/** Runtime imports between resource folders: folder → the folders it imports. */
function folderGraph(modules: readonly IModule[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const module of modules) {
    const from = folderOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (!to || to === from || !runs(dependency.dependencyTypes)) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Folders that reach each other (strongly connected, more than one folder). */
function folderCycles(graph: Map<string, Set<string>>): string[][] {
  const reach = (start: string) => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length) for (const next of graph.get(stack.pop()!) ?? []) if (!seen.has(next)) seen.add(next), stack.push(next);
    return seen;
  };
  const reachable = new Map([...graph.keys()].map((folder) => [folder, reach(folder)]));
  const cycles = new Map<string, string[]>();
  for (const [folder, reached] of reachable) {
    const together = [...reached].filter((other) => reachable.get(other)?.has(folder)).sort();
    if (together.length > 1) cycles.set(together.join(" "), together);
  }
  return [...cycles.values()];
}

describe("the domain's floor plan", () => {
  it("cruises the whole source tree", () => {
    expect(result.summary.totalCruised).toBeGreaterThan(300);
    expect(result.modules.some((module) => module.source === "src/domain/shared/context.ts")).toBe(true);
  });

  it("breaks none of the import rules", () => {
    const broken = result.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`);
    expect(broken).toEqual([]);
  });

  it("has no cycle between resource folders", () => {
    const graph = folderGraph(result.modules);
    expect(graph.get("notes")).toBeDefined(); // the graph is not empty: notes import what they hang from
    expect(folderCycles(graph)).toEqual([]);
  });

  it("keeps the dependencies the issue named running one way", () => {
    const graph = folderGraph(result.modules);
    const imports = (from: string, to: string) => graph.get(from)?.has(to) ?? false;
    for (const [upper, lower] of [["notes", "issues"], ["notes", "merge-requests"], ["award-emoji", "notes"], ["projects", "repository"]]) {
      expect(imports(lower!, upper!), `${lower} imports ${upper}`).toBe(false);
    }
    const domainToWebhooks = result.modules
      .filter((module) => module.source.startsWith("src/domain/"))
      .flatMap((module) => module.dependencies.filter((d) => d.resolved.startsWith("src/webhooks/") && runs(d.dependencyTypes)));
    expect(domainToWebhooks).toEqual([]);
  });

  it("finds a cycle when there is one (the check itself works)", () => {
    const graph = new Map([["a", new Set(["b"])], ["b", new Set(["c"])], ["c", new Set(["a"])], ["d", new Set(["a"])]]);
    expect(folderCycles(graph)).toEqual([["a", "b", "c"]]);
  });
});
