// The metrics' bounded labels and the process-level counts, read back through the registry as a
// scrape would (the registry is the process's own: values are compared before and after).
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { countGraphqlOperation, gitCommandOf, localMetrics, watchOutbox, type OutboxState } from "../../src/observability/metrics.js";
import { runGit, spawnGit } from "../../src/git/command.js";

async function samples(name: string): Promise<{ labels: Record<string, string>; value: number }[]> {
  const family = parsePrometheusTextFormat(await localMetrics()).find((f) => f.name === name);
  return (family?.metrics ?? []).map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) }));
}

const valueOf = async (name: string, labels: Record<string, string>) =>
  (await samples(name)).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value ?? 0;

describe("gitCommandOf", () => {
  it.each([
    [["--git-dir=/r.git", "cat-file", "--batch-command", "-z"], "cat-file"],
    [["-c", "core.bigFileThreshold=1m", "upload-pack", "--stateless-rpc", "/r.git"], "upload-pack"],
    [["-C", "/work", "--git-dir", "/r.git", "merge-tree", "--write-tree"], "merge-tree"],
    [["--version"], "version"],
    [["--git-dir=/r.git"], "other"],
    [["--git-dir=/r.git", "Not A Command"], "other"],
  ])("%j → %s", (args, command) => {
    expect(gitCommandOf(args)).toBe(command);
  });
});

describe("forgeline_graphql_operations_total", () => {
  it("counts unnamed operations as anonymous and names past the cap (or too long) as other", async () => {
    const anonymous = await valueOf("forgeline_graphql_operations_total", { operation_name: "anonymous", operation_type: "query" });
    countGraphqlOperation(undefined, "query");
    countGraphqlOperation("", "query");
    expect(await valueOf("forgeline_graphql_operations_total", { operation_name: "anonymous", operation_type: "query" })).toBe(anonymous + 2);

    const total = async () => (await samples("forgeline_graphql_operations_total")).reduce((sum, s) => sum + s.value, 0);
    const before = await total();
    const run = `${process.pid}x${Date.now().toString(36)}`;
    for (let i = 0; i < 250; i++) countGraphqlOperation(`Op${run}n${i}`, "mutation");
    countGraphqlOperation("L".repeat(101), "mutation");
    expect(await total()).toBe(before + 251);
    const names = new Set((await samples("forgeline_graphql_operations_total")).map((s) => s.labels.operation_name));
    expect(names.size).toBeLessThanOrEqual(201);
    expect(names.has("other")).toBe(true);
    expect(names.has("L".repeat(101))).toBe(false);
  });
});

describe("forgeline_git_processes", () => {
  it("counts a git process while it runs and once it was started", async () => {
    const started = await valueOf("forgeline_git_processes_started_total", { command: "hash-object" });
    const running = await valueOf("forgeline_git_processes", { command: "hash-object" });
    // reads its standard input until it is closed: running until then
    const child = spawnGit(["hash-object", "--stdin"]);
    expect(await valueOf("forgeline_git_processes", { command: "hash-object" })).toBe(running + 1);
    expect(await valueOf("forgeline_git_processes_started_total", { command: "hash-object" })).toBe(started + 1);
    child.stdin!.end("x");
    await once(child, "exit");
    expect(await valueOf("forgeline_git_processes", { command: "hash-object" })).toBe(running);
    await runGit(null, ["hash-object", "--stdin"], { input: "y" });
    expect(await valueOf("forgeline_git_processes_started_total", { command: "hash-object" })).toBe(started + 2);
    expect(await valueOf("forgeline_git_processes", { command: "hash-object" })).toBe(running);
  });
});

describe("the outbox gauges", () => {
  it("read the outbox once per scrape for both, and show NaN when the database cannot answer", async () => {
    let reads = 0;
    let answer: () => OutboxState = () => ({ pending: 3, oldestPendingAt: new Date(Date.now() - 2_000) });
    watchOutbox(async () => {
      reads++;
      return answer();
    });
    expect(await valueOf("forgeline_webhook_outbox_pending", {})).toBe(3);
    expect(reads).toBe(1);
    const age = await valueOf("forgeline_webhook_outbox_oldest_pending_age_seconds", {});
    expect(reads).toBe(2);
    expect(age).toBeGreaterThanOrEqual(2);
    expect(age).toBeLessThan(10);
    answer = () => ({ pending: 0, oldestPendingAt: null });
    expect(await valueOf("forgeline_webhook_outbox_oldest_pending_age_seconds", {})).toBe(0);
    answer = () => {
      throw new Error("database unreachable");
    };
    expect(await valueOf("forgeline_webhook_outbox_pending", {})).toBeNaN();
    expect(await valueOf("forgeline_webhook_outbox_oldest_pending_age_seconds", {})).toBeNaN();
    expect(await localMetrics()).toContain('forgeline_webhook_deliveries_total{result="success"}'); // the rest of the scrape is there
  });
});
