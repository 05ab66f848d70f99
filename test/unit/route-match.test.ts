// The route matcher: whole segments, encoded slashes inside a param, and a literal prefix before a
// param within one segment (`archive.:format`), and a trailing `*glob` taking the rest of the path.
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

describe("a trailing *glob", () => {
  const globbed = createMatcher([
    get("/projects/:id/releases/:tag_name/downloads/*direct_asset_path", "download"),
    get("/projects/:id/releases/:tag_name/downloads/latest", "fixed"),
    get("/projects/:id/releases/:tag_name", "release"),
  ]);
  const hit = (path: string) => {
    const result = globbed("GET", path);
    return result && { field: result.route.field, params: result.params };
  };

  it("takes one segment or more, each decoded, joined with /", () => {
    expect(hit("/projects/7/releases/v1/downloads/tool")).toEqual({ field: "Query.download", params: { id: "7", tag_name: "v1", direct_asset_path: "tool" } });
    expect(hit("/projects/7/releases/v1/downloads/bin/linux/tool")?.params.direct_asset_path).toBe("bin/linux/tool");
    expect(hit("/projects/7/releases/v1/downloads/bin%2Flinux/my%20tool")?.params.direct_asset_path).toBe("bin/linux/my tool");
    expect(hit("/projects/g%2Fp/releases/v%2F1/downloads/a/b")?.params).toEqual({ id: "g/p", tag_name: "v/1", direct_asset_path: "a/b" });
  });

  it("needs at least one segment, loses to a static route of the same length, refuses what does not decode", () => {
    expect(hit("/projects/7/releases/v1/downloads")).toBeNull();
    expect(hit("/projects/7/releases/v1")?.field).toBe("Query.release");
    expect(hit("/projects/7/releases/v1/downloads/latest")?.field).toBe("Query.fixed");
    expect(hit("/projects/7/releases/v1/downloads/latest/x")?.field).toBe("Query.download");
    expect(hit("/projects/7/releases/v1/downloads/a/%E0%A4%A")).toBeNull();
    expect(globbed("POST", "/projects/7/releases/v1/downloads/a/b")).toBeNull();
  });
});
