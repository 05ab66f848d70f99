// The plain-query fast path of parseQuery must give exactly what qs gives with the REST options.
import qs from "qs";
import { describe, expect, it } from "vitest";
import { parseQuery } from "../../src/rest/params.js";

const QS_OPTIONS = { arrayLimit: 1000, parameterLimit: 10_000, depth: 5, allowDots: false, duplicates: "last" } as const;
const viaQs = (text: string) => qs.parse(text, QS_OPTIONS);

describe("parseQuery", () => {
  it.each([
    "", "?", "?page=2&per_page=20", "page=2&page=3", "a", "a=", "=x", "a=1=2", "&&a=1&&", "search=two+words", "a+b=c",
    "toString=1&hasOwnProperty=2&ok=3", "__proto__=1&x=2", "order_by=created_at&sort=asc&labels=bug,ui", "a.b=1",
  ])("%j as qs parses it", (text) => {
    expect(parseQuery(text)).toEqual(viaQs(text.replace(/^\?/, "")));
  });

  it("random plain queries as qs parses them", () => {
    const alphabet = "ab=&+._-1 ";
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: next() % 24 }, () => alphabet[next() % alphabet.length]).join("");
      expect(parseQuery(text), text).toEqual(viaQs(text));
    }
  });

  it("brackets and percent-encoding go through qs", () => {
    expect(parseQuery("labels[]=a&labels[]=b%20c")).toEqual({ labels: ["a", "b c"] });
  });
});
