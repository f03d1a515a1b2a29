// The mix's bare baseline must answer what ours answers, or the ratio of their rates compares two
// different pieces of work: the staff's reads here, on the same database and with the same session.
import { expect, it } from 'vitest';
import { createTestApp, DEMO } from '../../api/test/helpers.ts';
import { bareCatalog } from './bare-catalog.ts';

const t = await createTestApp();
const bare = bareCatalog(t.config.databaseUrl, 2, undefined, t.config.jwtSecret);

it("answers the staff's reads of the mix (Low Stock, the orders page, the dashboard) as ours does", async () => {
  const employee = await t.login(DEMO.admin);
  // The seed's orders are recent: the report ranks their copies first, by the units they sold.
  await t.db.query('UPDATE book_copies SET quantity = 1 WHERE id IN (SELECT book_copy_id FROM order_items LIMIT 5)');
  for (const url of ['/api/employee/low-stock/', '/api/employee/order/1,10', '/api/employee/statistics/']) {
    const ours = await t.app.inject({ url, headers: { cookie: employee } });
    const baseline = await bare.inject({ url, headers: { cookie: employee } });
    expect(ours.statusCode, ours.body).toBe(200);
    expect(baseline.statusCode, baseline.body).toBe(200);
    expect(baseline.json().data, url).toEqual(ours.json().data);
  }
  const report = (await t.app.inject({ url: '/api/employee/low-stock/', headers: { cookie: employee } })).json().data;
  expect(report.copies[0].unitsSold30Days).toBeGreaterThan(0);
  expect(report.totalCopies).toBeGreaterThan(report.copies.length);
  await bare.close();
});
