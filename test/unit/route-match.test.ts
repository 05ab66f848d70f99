// The route matcher: whole segments, encoded slashes inside a param, and a literal prefix before a
// param within one segment (`archive.:format`).
import { describe, expect, it } from "vitest";
import { createMatcher } from "../../src/rest/match.js";
import type { Route } from "../../src/rest/route.js";

const get = (path: string, field: string): Route => ({ method: "GET", path, field: `Query.${field}` });

const match = createMatcher([
  get("/projects/:id/repository/archive", "plainArchive"),
  get("/projects/:id/repository/archive.:format", "archiveWithFormat"),
  get("/projects/:id/repository/:name", "anyName"),
]);
const found = (path: string) => {
  const result = match("GET", path);
  return result && { field: result.route.field, params: result.params };
};

describe("createMatcher", () => {
  it("matches a param after a literal prefix in the same segment", () => {
    expect(found("/projects/7/repository/archive.tar.gz")).toEqual({ field: "Query.archiveWithFormat", params: { id: "7", format: "tar.gz" } });
    expect(found("/projects/a%2Fb/repository/archive.zip")).toEqual({ field: "Query.archiveWithFormat", params: { id: "a/b", format: "zip" } });
    expect(found("/projects/7/repository/archive.tar%2Ebz2")?.params.format).toBe("tar.bz2");
  });

  it("prefers the exact segment, then the prefixed one, then a bare param", () => {
    expect(found("/projects/7/repository/archive")?.field).toBe("Query.plainArchive");
    expect(found("/projects/7/repository/archive.")).toEqual({ field: "Query.anyName", params: { id: "7", name: "archive." } });
    expect(found("/projects/7/repository/archivezip")?.field).toBe("Query.anyName");
    expect(found("/projects/7/repository/tree")?.field).toBe("Query.anyName");
  });

  it("refuses a prefixed segment whose param does not decode, and other methods", () => {
    expect(found("/projects/7/repository/archive.%E0%A4%A")).toBeNull();
    expect(match("POST", "/projects/7/repository/archive.zip")).toBeNull();
  });
});
