// The request histogram's own series against prom-client's Histogram, the one it replaces: the same
// observations must give /api/metrics the same text, line for line, and the same JSON.
import promClient from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesHistogram } from '../src/lib/series-histogram.ts';

const NAME = 'http_request_duration_seconds';
const HELP = 'request duration in seconds';
const BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
type Labels = { method: string; route: string; status_code: number };

function both() {
  const theirs = new promClient.Registry();
  const reference = new promClient.Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['method', 'route', 'status_code'],
    buckets: BUCKETS,
    registers: [theirs],
  });
  const ours = new promClient.Registry();
  const histogram = new SeriesHistogram<keyof Labels>(NAME, HELP, ['method', 'route', 'status_code'], BUCKETS);
  ours.registerMetric(histogram as unknown as promClient.Metric);
  const observe = (labels: Labels, seconds: number) => {
    reference.observe(labels, seconds);
    histogram.series(labels)(seconds);
  };
  return { theirs, ours, histogram, observe };
}

describe('the request histogram (SeriesHistogram)', () => {
  it("writes what prom-client's Histogram writes for the same observations, bounds, the largest and the tiny included", async () => {
    const { theirs, ours, observe } = both();
    const catalog = { method: 'GET', route: '/api/public/book-copy/types/', status_code: 200 };
    // On a bound (counted in it), between bounds, under the first, over the last, and a fraction's sum.
    for (const seconds of [0.01, 0.0100001, 0.003, 0.2, 0.25, 7, 12, 0.1 + 0.2]) observe(catalog, seconds);
    observe({ method: 'GET', route: '/api/public/book-copy/types/', status_code: 304 }, 0.001);
    observe({ method: 'POST', route: '/api/client/orders/', status_code: 409 }, 0.042);
    observe({ method: 'GET', route: '/api/public/book-copy/by-name/:name', status_code: 200 }, 0.06);

    const expected = await theirs.metrics();
    expect(expected).toContain(`${NAME}_bucket{le="0.01",method="GET",route="/api/public/book-copy/types/",status_code="200"} 2`);
    expect(await ours.metrics()).toBe(expected);
    // prom-client notes each line's exemplar (none here: null or undefined); the lines are otherwise the same.
    const withoutExemplars = (metrics: promClient.MetricObjectWithValues<promClient.MetricValue<string>>[]) =>
      metrics.map(({ values, ...metric }) => ({
        ...metric,
        values: values.map((line) => Object.fromEntries(Object.entries(line).filter(([key]) => key !== 'exemplar'))),
      }));
    expect(withoutExemplars(await ours.getMetricsAsJSON())).toEqual(withoutExemplars(await theirs.getMetricsAsJSON()));
  });

  it('keeps one series for labels that read the same, however often, in whatever order or type they are asked for', async () => {
    const { theirs, ours, histogram, observe } = both();
    const labels = { method: 'GET', route: '/api/health', status_code: 200 };
    observe(labels, 0.02);
    observe({ ...labels }, 0.03);
    expect(histogram.series({ ...labels })).toBe(histogram.series(labels));
    expect(histogram.series({ status_code: '200' as never, route: '/api/health', method: 'GET' })).toBe(histogram.series(labels));
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect((await ours.metrics()).match(/_count\{/g)).toHaveLength(1);
  });

  it('keeps its own copy of the labels, refuses a value that is not a finite number, and the name le', async () => {
    const { ours, histogram } = both();
    const labels = { method: 'GET', route: '/api/health', status_code: 200 };
    const observe = histogram.series(labels);
    labels.status_code = 500;
    observe(0.02);
    expect(() => observe(Number.NaN)).toThrow(TypeError);
    expect(() => observe(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    const text = await ours.metrics();
    expect(text).toContain(`${NAME}_count{method="GET",route="/api/health",status_code="200"} 1`);
    expect(text).toContain(`${NAME}_sum{method="GET",route="/api/health",status_code="200"} 0.02`);
    expect(() => new SeriesHistogram<'le'>(NAME, HELP, ['le'], BUCKETS)).toThrow(/reserved/);
  });

  it('writes what prom-client writes under an OpenMetrics registry and with default labels', async () => {
    const { theirs, ours, observe } = both();
    for (const registry of [theirs, ours]) {
      registry.setContentType(promClient.Registry.OPENMETRICS_CONTENT_TYPE as never);
      registry.setDefaultLabels({ instance: 'shop-1' });
    }
    observe({ method: 'GET', route: '/api/health', status_code: 200 }, 0.07);
    const expected = await theirs.metrics();
    expect(expected).toContain('instance="shop-1"');
    expect(await ours.metrics()).toBe(expected);
  });

  it('is zeroed by the registry, and counts again through the observers it handed out', async () => {
    const { ours, histogram } = both();
    const observe = histogram.series({ method: 'GET', route: '/api/health', status_code: 200 });
    observe(0.5);
    ours.resetMetrics();
    expect(await ours.metrics()).toContain(`${NAME}_count{method="GET",route="/api/health",status_code="200"} 0`);
    observe(0.5);
    const text = await ours.metrics();
    expect(text).toContain(`${NAME}_count{method="GET",route="/api/health",status_code="200"} 1`);
    expect(text).toContain(`${NAME}_sum{method="GET",route="/api/health",status_code="200"} 0.5`);
    expect(text).toContain(`${NAME}_bucket{le="0.5",method="GET",route="/api/health",status_code="200"} 1`);
  });
});
