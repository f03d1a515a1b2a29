// A Prometheus histogram whose series are made once and then observed with no label work at all.
// prom-client's labelled observe, a child's from `labels()` included, copies, checks and hashes its
// labels on every call: about 2 µs of a catalog read's 90-100 µs of CPU, profiled under the bench's
// load on 27 November (late). The request histogram observes once per answer, so each route keeps
// its series and calls them directly. It is exposed through prom-client's registry, in its format
// (a registered metric is anything with a name, a help, a type and get()).

type LabelValues<L extends string> = Record<L, string | number>;

interface Series<L extends string> {
  labels: LabelValues<L>;
  /** Per bucket, the observations that fell in it and in no smaller one (summed up on export). */
  counts: number[];
  sum: number;
  count: number;
  observe: (value: number) => void;
}

export class SeriesHistogram<L extends string> {
  readonly type = 'histogram';
  /** How prom-client's cluster aggregation would merge workers' series. */
  readonly aggregator = 'sum';
  /** Each series by its label values as JSON, in the order made: the same labels always get the same series. */
  private all = new Map<string, Series<L>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly upperBounds: readonly number[],
  ) {
    // `le` is the bucket's own label on export.
    if ((labelNames as readonly string[]).includes('le')) throw new Error('le is reserved for the buckets');
  }

  /**
   * The observe of the series with these labels, made on first ask; keep it, as asking costs the
   * labels' key. Labels that read the same (200 and '200', in any order) are the same series, as
   * their exported lines would be.
   */
  series(given: LabelValues<L>): (value: number) => void {
    const key = JSON.stringify(this.labelNames.map((name) => String(given[name])));
    const known = this.all.get(key);
    if (known) return known.observe;
    // A copy in the names' order: the caller's object may change, and the registry caches each series' label text by object.
    const labels = Object.freeze(Object.fromEntries(this.labelNames.map((name) => [name, given[name]]))) as LabelValues<L>;
    const bounds = this.upperBounds;
    const series: Series<L> = {
      labels,
      counts: bounds.map(() => 0),
      sum: 0,
      count: 0,
      observe: (value) => {
        // As prom-client: one NaN would leave the sum NaN for good.
        if (!Number.isFinite(value)) throw new TypeError(`${this.name}: not a finite number: ${value}`);
        for (let i = 0; i < bounds.length; i++) {
          if (value <= bounds[i]!) {
            series.counts[i]!++;
            break;
          }
        }
        series.sum += value;
        series.count++;
      },
    };
    this.all.set(key, series);
    return series.observe;
  }

  /** Zeroes every series (prom-client's registry.resetMetrics); the series stay, as their observers are held. */
  reset() {
    for (const series of this.all.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }

  /**
   * prom-client's shape, as its registry writes it: each series' cumulative buckets, then +Inf, _sum
   * and _count, the series' labels shared by its lines (one object, which the registry's formatting caches).
   */
  getForPromString() {
    const values = [...this.all.values()].flatMap(({ labels, counts, sum, count }) => {
      let cumulative = 0;
      return [
        ...this.upperBounds.map((le, i) => {
          cumulative += counts[i]!;
          return { labels: { le }, sharedLabels: labels, value: cumulative, metricName: `${this.name}_bucket` };
        }),
        { labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: `${this.name}_bucket` },
        { labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` },
      ];
    });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same with each line's labels whole (prom-client's getMetricsAsJSON). */
  get() {
    const metric = this.getForPromString();
    return {
      ...metric,
      values: metric.values.map(({ labels, sharedLabels, ...line }) => ({ ...line, labels: { ...sharedLabels, ...labels } })),
    };
  }
}
