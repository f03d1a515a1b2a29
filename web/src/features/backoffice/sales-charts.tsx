// The dashboard's charts (beyond the spec), below the spec's cards and tables. This module is
// loaded lazily by the dashboard, so the charting library never reaches the storefront's bundle.
// Each chart is drawn for the eye and hidden from screen readers (and from the keyboard: no
// accessibility layer); the numbers behind it are in a table beneath, which anyone can open.
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { QueryView } from '../../components/query-view';
import { money } from '../../lib/format';
import { useCategoryUnits, useDailySales, useStatusMix } from './api/get-sales-charts';

/** Colours that keep apart for the common colour-vision deficiencies (Okabe and Ito). */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];
const CHART_HEIGHT = 260;

function ChartFigure<Row>({
  title,
  query,
  empty,
  chart,
  columns,
}: {
  title: string;
  query: UseQueryResult<Row[]>;
  empty: string;
  chart: (rows: Row[]) => ReactNode;
  columns: [label: string, cell: (row: Row) => ReactNode][];
}) {
  return (
    <figure className="chart">
      <figcaption>
        <h2>{title}</h2>
      </figcaption>
      <QueryView query={query} what={`the chart “${title}”`} empty={{ text: empty, when: (data) => !data.length }}>
        {(data) => (
          <>
            <div aria-hidden="true" className="chart-drawing">
              <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
                {chart(data)}
              </ResponsiveContainer>
            </div>
            <details>
              <summary>The numbers behind “{title}”</summary>
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">{title}</caption>
                  <thead>
                    <tr>
                      {columns.map(([label]) => (
                        <th key={label} scope="col">
                          {label}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {data.map((row, index) => (
                      // The rows are the chart's own, in order, and never reordered.
                      // biome-ignore lint/suspicious/noArrayIndexKey: see above
                      <tr key={index}>
                        {columns.map(([label, cell]) => (
                          <td key={label}>{cell(row)}</td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </>
        )}
      </QueryView>
    </figure>
  );
}

const shortDay = (day: string) => day.slice(5);

export default function SalesCharts() {
  const daily = useDailySales();
  const categories = useCategoryUnits();
  const statuses = useStatusMix();
  return (
    <section aria-label="Sales charts" className="charts">
      <ChartFigure
        title="Revenue and orders per day, last 30 days"
        query={daily}
        empty="No orders in the last 30 days."
        chart={(rows) => (
          <LineChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" tickFormatter={shortDay} minTickGap={16} />
            <YAxis yAxisId="revenue" tickFormatter={(v: number) => `$${v}`} />
            <YAxis yAxisId="orders" orientation="right" allowDecimals={false} />
            <Tooltip />
            <Legend />
            <Line
              yAxisId="revenue"
              type="linear"
              dataKey="revenue"
              name="Revenue"
              stroke={PALETTE[0]}
              dot={false}
              isAnimationActive={false}
            />
            <Line yAxisId="orders" type="linear" dataKey="orders" name="Orders" stroke={PALETTE[1]} dot={false} isAnimationActive={false} />
          </LineChart>
        )}
        columns={[
          ['Day', (d) => d.day],
          ['Orders', (d) => d.orders],
          ['Revenue', (d) => money(d.revenue)],
        ]}
      />
      <ChartFigure
        title="Units sold by category, last 30 days"
        query={categories}
        empty="Nothing sold in the last 30 days."
        chart={(rows) => (
          <BarChart accessibilityLayer={false} data={rows} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" allowDecimals={false} />
            <YAxis type="category" dataKey="category" width={110} />
            <Tooltip />
            <Bar dataKey="units" name="Units" fill={PALETTE[2]} isAnimationActive={false} />
          </BarChart>
        )}
        columns={[
          ['Category', (c) => c.category],
          ['Units sold', (c) => c.units],
        ]}
      />
      <ChartFigure
        title="Orders by status, last 30 days"
        query={statuses}
        empty="No orders in the last 30 days."
        chart={(rows) => (
          <PieChart accessibilityLayer={false}>
            <Pie data={rows} dataKey="orders" nameKey="status" outerRadius="80%" label isAnimationActive={false} rootTabIndex={-1}>
              {rows.map((row, index) => (
                <Cell key={row.status} fill={PALETTE[index % PALETTE.length]} />
              ))}
            </Pie>
            <Tooltip />
            <Legend />
          </PieChart>
        )}
        columns={[
          ['Status', (s) => s.status],
          ['Orders', (s) => s.orders],
        ]}
      />
    </section>
  );
}
