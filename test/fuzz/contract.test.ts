// Contract fuzz test: requests generated from GET /api/v4/openapi.json (valid ones and hostile
// ones, as anonymous, a regular user, a project member and the admin) against the real app on a
// real database. No 5xx, no hang, only documented statuses, 2xx bodies as documented, and the
// health probe still answers. FUZZ_SEED replays a run; FUZZ_REQUESTS changes its size
// (`npm run fuzz -- --requests 20000` runs a larger one against a server process); FUZZ_TRACE=<file>
// writes every request's operation, kind, actor and status there, one JSON line each.
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT_TOKEN, startTestApp, type TestApp } from "../helpers/app.js";
import { createFixtures, type Fixtures } from "./fixtures.js";
import type { OpenApiDocument } from "./generator.js";
import { formatReport, runFuzz, type Send } from "./runner.js";

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 5000);
/** One fixed sequence in the suite, so that CI answers the same way each run; `npm run fuzz` explores new seeds. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const ORIGIN = "http://forgeline.test";

let t: TestApp;
let fixtures: Fixtures;
let document: OpenApiDocument;

const send: Send = async ({ method, url, headers, body }) => {
  const response = await t.app.fetch(new Request(`${ORIGIN}${url}`, { method, headers, body }));
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
};

beforeAll(async () => {
  t = await startTestApp();
  const answer = await send({ method: "GET", url: "/api/v4/openapi.json", headers: {} });
  expect(answer.status).toBe(200);
  document = JSON.parse(answer.text);
  fixtures = await createFixtures(send, ROOT_TOKEN);
}, 120_000);

describe("contract fuzz from the OpenAPI document", () => {
  it("creates every fixture the requests name", () => {
    expect(fixtures.problems).toEqual([]);
  });

  it(`answers ${REQUESTS} generated requests without server errors, hangs, undocumented statuses or bodies (seed ${SEED})`, async () => {
    console.log(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run test/fuzz/contract.test.ts)`);
    const report = await runFuzz({ send, origin: ORIGIN, document, ...fixtures, requests: REQUESTS, seed: SEED, timeoutMs: 10_000 });
    console.log(formatReport(report));
    expect(report.requests).toBe(REQUESTS);
    expect(report.failures.map((f) => `${f.operationId} [${f.kind}] as ${f.actor}: ${f.problem}\n${f.curl}`)).toEqual([]);
    expect(report.healthAfter).toBe(200);
  }, 300_000);
});
