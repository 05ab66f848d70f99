// Scraping /-/metrics of a running server or worker and reading it back with a Prometheus text
// parser (parse-prometheus-text-format), as Prometheus would read it.
import { expect } from "vitest";
import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";

export interface Scrape {
  families: ParsedFamily[];
  /**
   * The same text with the histograms read as plain series (`<name>_bucket`, `_sum`, `_count`):
   * parse-prometheus-text-format folds a histogram's labelled series into one object (it reads
   * unlabelled histograms only), so a labelled histogram's counts are read from its `_count` lines.
   */
  series: ParsedFamily[];
  text: string;
  /** the scrape's X-Request-Id (its log line names the process that answered) */
  requestId: string;
}

/** GET <base>/-/metrics on a connection of its own; fails unless answered 200 in Prometheus text format. */
export async function scrape(base: string): Promise<Scrape> {
  const response = await fetch(`${base}/-/metrics`, { headers: { Connection: "close" } });
  const text = await response.text();
  expect(response.status, text.slice(0, 500)).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const families = parsePrometheusTextFormat(text);
  const series = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped"));
  return { families, series, text, requestId: response.headers.get("x-request-id")! };
}

const matches = (sampleLabels: Record<string, string> | undefined, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([name, value]) => sampleLabels?.[name] === value);

function family(scraped: Scrape, name: string): ParsedFamily | undefined {
  return scraped.families.find((f) => f.name === name);
}

/** The sum of the counter's or gauge's samples carrying `labels` (0 when there is none). */
export function total(scraped: Scrape, name: string, labels: Record<string, string> = {}): number {
  return (family(scraped, name)?.metrics ?? []).filter((m) => matches(m.labels, labels)).reduce((sum, m) => sum + Number(m.value), 0);
}

/** Count and sum of the histogram's series carrying `labels`, added up. */
export function histogram(scraped: Scrape, name: string, labels: Record<string, string> = {}): { count: number; sum: number } {
  expect(family(scraped, name)?.type, `${name} is a histogram`).toBe("HISTOGRAM");
  // each series' bucket, sum and count lines come together: one run of `_count` lines per series
  const added = (suffix: string) =>
    scraped.series.filter((f) => f.name === `${name}_${suffix}`).flatMap((f) => f.metrics)
      .filter((m) => matches(m.labels, labels))
      .reduce((n, m) => n + Number(m.value), 0);
  return { count: added("count"), sum: added("sum") };
}

/** The label values a metric has samples for. */
export function labelValues(scraped: Scrape, name: string, label: string): string[] {
  return [...new Set((family(scraped, name)?.metrics ?? []).map((m) => m.labels?.[label]).filter((v): v is string => v !== undefined))];
}

/**
 * Scrapes until `done` holds (a request is counted once its response is over, which the server may
 * see a moment after the client read it; a delivery once the receiver answered). `earlier`: the
 * scrapes this call made before the one returned (each is a request /-/metrics counts).
 */
export async function scrapeUntil(base: string, done: (scraped: Scrape, earlier: number) => boolean, timeoutMs = 15_000): Promise<Scrape & { earlier: number }> {
  const deadline = Date.now() + timeoutMs;
  for (let earlier = 0; ; earlier++) {
    const scraped = await scrape(base);
    if (done(scraped, earlier) || Date.now() > deadline) return { ...scraped, earlier };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
