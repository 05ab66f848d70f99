// Offset and keyset pagination on GET /users: X-* headers, the Link header (exact, absolute, every
// query param, keys sorted), clamping, following rel="next" to the end, the 10,000-row count
// limit, and the 50,000-row offset limit.
import { beforeAll, describe, expect, it } from "vitest";
import { parseLinks, rawRequest, type ApiResponse } from "../helpers/api.js";
import { BASE_URL, ROOT_TOKEN, startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";
import type { User } from "../../src/generated/prisma/client.js";

const TOTAL = 250;
let t: TestApp;
let alice: TestUser;
/** every user, newest first (GET /users' default order) */
let allDesc: number[];

/** Rows inserted directly as setup; a few more users come through the API. */
function userRows(count: number, offset: number) {
  return Array.from({ length: count }, (_, i) => {
    const n = offset + i;
    const username = `bulk${String(n).padStart(5, "0")}${"zyxwv"[n % 5]}`;
    // repeated names, so ordering by name needs the id tie-breaker
    return { username, usernameLower: username.toLowerCase(), name: `Person ${n % 7}`, email: `${username}@example.com` };
  });
}

beforeAll(async () => {
  t = await startTestApp();
  alice = await createUser(t, { name: "Person 3" });
  await createUser(t, { name: "Api Made" });
  const existing = await t.services.db.user.count();
  await t.services.db.user.createMany({ data: userRows(TOTAL - existing - 2, 0) });
  await createUser(t, { name: "Person 5" });
  await createUser(t, { name: "Last One" });
  allDesc = (await t.services.db.user.findMany({ orderBy: { id: "desc" }, select: { id: true } })).map((u) => u.id);
  expect(allDesc).toHaveLength(TOTAL);
});

const ids = (body: any[]) => body.map((u) => u.id);
const url = (query: string) => `${BASE_URL}/api/v4/users?${query}`;

describe("offset pagination", () => {
  it("sets every header on a middle page", async () => {
    const res = await t.root.get("/users", { query: { per_page: 20, page: 2 } });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(allDesc.slice(20, 40));
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-per-page")).toBe("20");
    expect(res.headers.get("x-next-page")).toBe("3");
    expect(res.headers.get("x-prev-page")).toBe("1");
    expect(res.headers.get("x-total")).toBe("250");
    expect(res.headers.get("x-total-pages")).toBe("13");
    expect(res.headers.get("link")).toBe(
      [
        `<${url("page=1&per_page=20")}>; rel="prev"`,
        `<${url("page=3&per_page=20")}>; rel="next"`,
        `<${url("page=1&per_page=20")}>; rel="first"`,
        `<${url("page=13&per_page=20")}>; rel="last"`,
      ].join(", "),
    );
  });

  it("defaults to page 1 of 20, with an empty x-prev-page and no rel=prev", async () => {
    const res = await t.root.get("/users");
    expect(ids(res.body)).toEqual(allDesc.slice(0, 20));
    expect(res.headers.get("x-page")).toBe("1");
    expect(res.headers.get("x-per-page")).toBe("20");
    expect(res.headers.get("x-prev-page")).toBe("");
    expect(res.headers.get("x-next-page")).toBe("2");
    expect(res.headers.get("link")).toBe(
      `<${url("page=2&per_page=20")}>; rel="next", <${url("page=1&per_page=20")}>; rel="first", <${url("page=13&per_page=20")}>; rel="last"`,
    );
  });

  it("has an empty x-next-page and no rel=next on the last page", async () => {
    const res = await t.root.get("/users", { query: { page: 13 } });
    expect(ids(res.body)).toEqual(allDesc.slice(240));
    expect(res.headers.get("x-next-page")).toBe("");
    expect(res.headers.get("x-prev-page")).toBe("12");
    expect(Object.keys(parseLinks(res.headers.get("link")))).toEqual(["prev", "first", "last"]);
  });

  it("answers an empty page past the end without prev or next (Kaminari's out of range)", async () => {
    const res = await t.root.get("/users", { query: { page: 50 } });
    expect(res.body).toEqual([]);
    expect(res.headers.get("x-page")).toBe("50");
    expect(res.headers.get("x-prev-page")).toBe("");
    expect(res.headers.get("x-next-page")).toBe("");
    expect(res.headers.get("x-total")).toBe("250");
    expect(res.headers.get("link")).toBe(`<${url("page=1&per_page=20")}>; rel="first", <${url("page=13&per_page=20")}>; rel="last"`);
  });

  it("reports at least one page for an empty list", async () => {
    const res = await t.root.get("/users", { query: { search: "no-such-person" } });
    expect(res.body).toEqual([]);
    expect(res.headers.get("x-total")).toBe("0");
    expect(res.headers.get("x-total-pages")).toBe("1");
    expect(res.headers.get("link")).toBe(
      `<${url("page=1&per_page=20&search=no-such-person")}>; rel="first", <${url("page=1&per_page=20&search=no-such-person")}>; rel="last"`,
    );
  });

  it("carries every query param in the links, keys sorted", async () => {
    const res = await rawRequest(t.app, "GET", "/api/v4/users?search=Person+3&per_page=5&active=true&page=2", {
      headers: { "PRIVATE-TOKEN": ROOT_TOKEN },
    });
    const matching = await t.services.db.user.count({ where: { name: { contains: "Person 3" } } });
    expect(res.headers.get("x-total")).toBe(String(matching));
    const pages = Math.ceil(matching / 5);
    const q = (page: number) => url(`active=true&page=${page}&per_page=5&search=Person%203`);
    expect(res.headers.get("link")).toBe(
      `<${q(1)}>; rel="prev", <${q(3)}>; rel="next", <${q(1)}>; rel="first", <${q(pages)}>; rel="last"`,
    );
  });

  it("sorts link params as Ruby does (upper case first) and keeps array params", async () => {
    const res = await rawRequest(t.app, "GET", "/api/v4/users?per_page=100&Zeta=1&alpha=2&list[]=b&list[]=a", {
      headers: { "PRIVATE-TOKEN": ROOT_TOKEN },
    });
    expect(parseLinks(res.headers.get("link")).next).toBe(url("Zeta=1&alpha=2&list%5B%5D=b&list%5B%5D=a&page=2&per_page=100"));
  });

  it("builds links from the request's own host and port", async () => {
    const res = await rawRequest(t.app, "GET", "http://127.0.0.1:8929/api/v4/users?per_page=100", { headers: { "PRIVATE-TOKEN": ROOT_TOKEN } });
    const links = parseLinks(res.headers.get("link"));
    expect(links.next).toBe("http://127.0.0.1:8929/api/v4/users?page=2&per_page=100");
    expect(links.last).toBe("http://127.0.0.1:8929/api/v4/users?page=3&per_page=100");
  });

  it("clamps per_page to 100", async () => {
    const res = await t.root.get("/users", { query: { per_page: 500 } });
    expect(res.body).toHaveLength(100);
    expect(res.headers.get("x-per-page")).toBe("100");
    expect(res.headers.get("x-total-pages")).toBe("3");
    expect(parseLinks(res.headers.get("link")).next).toBe(url("page=2&per_page=100"));
  });

  it("treats page 0 and negative pages as page 1", async () => {
    for (const page of [0, -3]) {
      const res = await t.root.get("/users", { query: { page, per_page: 10 } });
      expect(ids(res.body)).toEqual(allDesc.slice(0, 10));
      expect(res.headers.get("x-page")).toBe("1");
      expect(res.headers.get("x-prev-page")).toBe("");
    }
  });

  it("visits every user exactly once by following rel=next", async () => {
    const seen: number[] = [];
    let next: string | undefined = url("per_page=37");
    let requests = 0;
    while (next) {
      const res: ApiResponse = await rawRequest(t.app, "GET", next, { headers: { "PRIVATE-TOKEN": ROOT_TOKEN } });
      expect(res.status).toBe(200);
      seen.push(...ids(res.body));
      next = parseLinks(res.headers.get("link")).next;
      requests++;
    }
    expect(requests).toBe(Math.ceil(TOTAL / 37));
    expect(seen).toEqual(allDesc);
  });

  it("paginates what a non-administrator sees the same way", async () => {
    const res = await alice.api.get("/users", { query: { per_page: 50, page: 5 } });
    expect(ids(res.body)).toEqual(allDesc.slice(200, 250));
    expect(res.headers.get("x-total")).toBe("250");
    expect(res.headers.get("x-next-page")).toBe("");
  });

  it("refuses offsets past 50,000 users, pointing to keyset pagination", async () => {
    const ok = await t.root.get("/users", { query: { page: 2500, per_page: 20 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual([]);
    const res = await t.root.get("/users", { query: { page: 2501, per_page: 20 } });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({
      error:
        "Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type User. " +
        "Remaining records can be retrieved using keyset pagination.",
    });
    expect((await t.root.get("/users", { query: { page: 501 } })).status).toBe(200);
    expect((await t.root.get("/users", { query: { page: 501, per_page: 100 } })).status).toBe(405);
  });
});

describe("keyset pagination", () => {
  type Key = "id" | "name" | "username" | "created_at" | "updated_at";
  const column: Record<Key, keyof User> = { id: "id", name: "name", username: "username", created_at: "createdAt", updated_at: "updatedAt" };
  const value = (user: User, key: Key) => {
    const v = user[column[key]];
    return v instanceof Date ? v.getTime() : v;
  };

  /** The expected order, computed here: by the column, then by id, in the same direction. */
  async function expectedOrder(key: Key, sort: "asc" | "desc") {
    const users = await t.services.db.user.findMany();
    const sign = sort === "asc" ? 1 : -1;
    return users
      .sort((a, b) => {
        const [x, y] = [value(a, key), value(b, key)];
        if (x !== y) return (x! < y! ? -1 : 1) * sign;
        return (a.id - b.id) * sign;
      })
      .map((u) => u.id);
  }

  async function walk(first: string, token = ROOT_TOKEN) {
    const seen: number[] = [];
    let next: string | undefined = first;
    let pages = 0;
    while (next) {
      const res: ApiResponse = await rawRequest(t.app, "GET", next, { headers: { "PRIVATE-TOKEN": token } });
      expect(res.status, res.text).toBe(200);
      for (const header of ["x-total", "x-total-pages", "x-page", "x-per-page", "x-next-page", "x-prev-page"]) {
        expect(res.headers.get(header), header).toBeNull();
      }
      const links = parseLinks(res.headers.get("link"));
      if (res.headers.get("link")) expect(Object.keys(links)).toEqual(["next"]);
      seen.push(...ids(res.body));
      next = links.next;
      pages++;
    }
    return { seen, pages };
  }

  it.each(["id", "name", "username", "created_at", "updated_at"] as const)("walks order_by=%s both ways, every row once", async (key) => {
    for (const sort of ["asc", "desc"] as const) {
      const { seen, pages } = await walk(url(`pagination=keyset&per_page=50&order_by=${key}&sort=${sort}`));
      expect(seen).toEqual(await expectedOrder(key, sort));
      expect(pages).toBe(5);
    }
  });

  it("sends only rel=next, with the filters and a cursor, keys sorted; no Link at the end", async () => {
    const res = await rawRequest(t.app, "GET", "/api/v4/users?pagination=keyset&order_by=name&sort=asc&per_page=3&search=Person+5", {
      headers: { "PRIVATE-TOKEN": ROOT_TOKEN },
    });
    const link = res.headers.get("link")!;
    expect(link).toMatch(/^<http:\/\/forgeline\.test\/api\/v4\/users\?cursor=[A-Za-z0-9_-]+&order_by=name&pagination=keyset&per_page=3&search=Person%205&sort=asc>; rel="next"$/);
    const { seen } = await walk("/api/v4/users?pagination=keyset&order_by=name&sort=asc&per_page=3&search=Person+5");
    const matching = new Set((await t.services.db.user.findMany({ where: { name: { contains: "Person 5" } } })).map((u) => u.id));
    expect(seen.length).toBe(matching.size);
    expect(seen).toEqual((await expectedOrder("name", "asc")).filter((id) => matching.has(id)));
    const lastPage = await t.root.get("/users", { query: { pagination: "keyset", per_page: 100, order_by: "id", sort: "asc", search: "Last One" } });
    expect(lastPage.body).toHaveLength(1);
    expect(lastPage.headers.get("link")).toBeNull();
  });

  it("defaults to id descending and clamps per_page to 100", async () => {
    const res = await t.root.get("/users", { query: { pagination: "keyset", per_page: 1000 } });
    expect(ids(res.body)).toEqual(allDesc.slice(0, 100));
    const { seen, pages } = await walk(url("pagination=keyset&per_page=1000"));
    expect(seen).toEqual(allDesc);
    expect(pages).toBe(3);
  });

  it("orders by id descending for non-administrators whatever they ask", async () => {
    const { seen } = await walk(url("pagination=keyset&per_page=100&order_by=name&sort=asc"), alice.token);
    expect(seen).toEqual(allDesc);
  });

  it("refuses a cursor it did not issue", async () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const cases: [Record<string, string>, string][] = [
      [{}, "not-a-cursor"],
      [{}, encode(["x"])],
      [{ order_by: "name" }, encode([{ nested: true }, 3])],
      [{ order_by: "created_at" }, encode(["yesterday", 3])],
      [{ order_by: "id" }, encode([3, 1.5])],
    ];
    for (const [query, cursor] of cases) {
      const res = await t.root.get("/users", { query: { pagination: "keyset", ...query, cursor } });
      expect(res.status, cursor).toBe(400);
      expect(res.body).toEqual({ error: "cursor is invalid" });
    }
  });
});

describe("more than 10,000 rows", () => {
  let big: TestApp;
  beforeAll(async () => {
    big = await startTestApp();
    const rows = userRows(10_001, 0);
    for (let i = 0; i < rows.length; i += 2500) await big.services.db.user.createMany({ data: rows.slice(i, i + 2500) });
  });

  it("omits x-total, x-total-pages and rel=last", async () => {
    const res = await big.root.get("/users", { query: { per_page: 100, page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(100);
    expect(res.headers.get("x-total")).toBeNull();
    expect(res.headers.get("x-total-pages")).toBeNull();
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-next-page")).toBe("3");
    expect(res.headers.get("x-prev-page")).toBe("1");
    const link = (page: number) => `${BASE_URL}/api/v4/users?page=${page}&per_page=100`;
    expect(res.headers.get("link")).toBe(`<${link(1)}>; rel="prev", <${link(3)}>; rel="next", <${link(1)}>; rel="first"`);
  });

  it("still knows the last page by its missing next page", async () => {
    const res = await big.root.get("/users", { query: { per_page: 100, page: 101 } });
    expect(res.body).toHaveLength(2); // 10,001 bulk rows + root
    expect(res.headers.get("x-next-page")).toBe("");
    expect(res.headers.get("x-total")).toBeNull();
  });

  it("reports counts again once a filter brings the rows under the limit", async () => {
    const res = await big.root.get("/users", { query: { search: "Person 0", per_page: 100 } });
    const expected = await big.services.db.user.count({ where: { name: "Person 0" } });
    expect(res.headers.get("x-total")).toBe(String(expected));
  });
});
