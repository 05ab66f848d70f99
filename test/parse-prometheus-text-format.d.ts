// parse-prometheus-text-format (no bundled types): the parts the tests read.
declare module "parse-prometheus-text-format" {
  export interface ParsedSample {
    value?: string;
    labels?: Record<string, string>;
    /** histograms: cumulative count per upper bound ("+Inf" included) */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
    quantiles?: Record<string, string>;
  }
  export interface ParsedFamily {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: ParsedSample[];
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
