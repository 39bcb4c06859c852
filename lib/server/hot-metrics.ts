import { register as defaultRegistry, type Metric, type Registry } from "prom-client";

// A counter and a histogram for the metrics counted on every request, registered in prom-client's registry and
// read the same way (its text format, and the supervisor's AggregatorRegistry summing the workers' JSON). prom-client's
// own take a labels object on every call, check each label's name and hash the set (sorted names, one string):
// about 5 µs of a gateway call's main-thread CPU in bench:gateway's profile for one counter and two histograms. These
// take the label values in their declared order and keep each series under its values joined; what they report is
// what prom-client's report for the same calls (tests/unit/hot-metrics.test.ts compares the text, line by line).

const SEPARATOR = "\u0000"; // cannot occur in a route pattern, method, status or product slug

interface Series<T> {
  labels: Record<string, string>;
  data: T;
}

function labelsOf(names: readonly string[], values: readonly string[]): Record<string, string> {
  if (values.length !== names.length) throw new Error(`expected ${names.length} label values (${names.join(", ")}), got ${values.length}`);
  const labels: Record<string, string> = {};
  names.forEach((name, i) => (labels[name] = values[i]));
  return labels;
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

abstract class HotMetric<T> {
  readonly aggregator = "sum" as const;
  protected readonly series = new Map<string, Series<T>>();
  abstract readonly type: "counter" | "histogram";

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    registry: Registry = defaultRegistry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  // The series the last call counted in, with its label values: calls in a row mostly count in the same one (one
  // route under load), which is then found by comparing the values, without joining them into a key.
  private last: { values: readonly string[]; data: T } | null = null;

  /** A new series' data. */
  protected abstract empty(): T;

  protected seriesFor(values: readonly string[]): T {
    const last = this.last;
    if (last && sameValues(last.values, values)) return last.data;
    const key = values.join(SEPARATOR);
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: labelsOf(this.labelNames, values), data: this.empty() }));
    this.last = { values, data: s.data };
    return s.data;
  }

  reset(): void {
    this.series.clear();
    this.last = null;
  }
}

export class HotCounter extends HotMetric<{ value: number }> {
  readonly type = "counter" as const;

  protected empty() {
    return { value: 0 };
  }

  /** Adds one to the series of these label values (in labelNames' order). */
  inc(...values: string[]): void {
    this.seriesFor(values).value++;
  }

  async get() {
    return {
      help: this.help,
      name: this.name,
      type: this.type,
      values: [...this.series.values()].map((s) => ({ value: s.data.value, labels: s.labels })),
      aggregator: this.aggregator,
    };
  }
}

interface Buckets {
  /** Observations per bucket (not cumulative); the last is above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

export class HotHistogram extends HotMetric<Buckets> {
  readonly type = "histogram" as const;

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
    registry?: Registry,
  ) {
    super(name, help, labelNames, registry);
  }

  protected empty(): Buckets {
    return { counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
  }

  /** Counts `value` in the series of these label values (in labelNames' order). */
  observe(value: number, ...values: string[]): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const b = this.seriesFor(values);
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]) i++;
    b.counts[i]++;
    b.sum += value;
    b.count++;
  }

  async get() {
    // Shaped as prom-client's (its bucket entries carry an exemplar, null without exemplars).
    const values: { value: number; metricName: string; exemplar?: null; labels: Record<string, string | number> }[] = [];
    for (const { labels, data } of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += data.counts[i];
        values.push({ value: cumulative, metricName: `${this.name}_bucket`, exemplar: null, labels: { le, ...labels } });
      });
      values.push({ value: data.count, metricName: `${this.name}_bucket`, exemplar: null, labels: { le: "+Inf", ...labels } });
      values.push({ value: data.sum, metricName: `${this.name}_sum`, labels });
      values.push({ value: data.count, metricName: `${this.name}_count`, labels });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}
