// The catalog export past its time budget (30 minutes in the shop, a second here): a download still
// under way is cut off, never ended as a file that looks whole; the log says why, as an error (not as
// an Admin who left); and its connection goes back to the pool.
import { expect, it, vi } from 'vitest';
import { loggerOptions } from '../src/lib/logging.ts';
import { addBigCatalog, getOverHttp, pauseAfterFirstData } from './export-download.ts';
import { createTestApp, DEMO } from './helpers.ts';
import { logCapture } from './log-capture.ts';

// vi.mock is hoisted above the file's other lines: the budget is set in a hoisted block too.
const { EXPORT_BUDGET_MS } = vi.hoisted(() => ({ EXPORT_BUDGET_MS: 1000 }));
vi.mock('../src/modules/catalog-admin/catalog-transfer-repository.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/modules/catalog-admin/catalog-transfer-repository.ts')>()),
  EXPORT_TIME_LIMIT_MS: EXPORT_BUDGET_MS,
}));

const { lines: logLines, stream } = logCapture<{ level: number; msg: string; err?: { message: string } }>();
const t = await createTestApp({ logger: loggerOptions({ env: 'test', logLevel: 'info' }, stream) });
const admin = await t.login(DEMO.admin);

it('cuts off a download still under way when the export has had its time, and says why in the log', async () => {
  // Far more than the sockets' buffers hold, so a reader that stops keeps the export under way.
  await addBigCatalog(t.db);
  const started = Date.now();
  const download = await getOverHttp(t.app, '/api/employee/catalog/export.csv', { cookie: admin });
  expect(download.statusCode).toBe(200);
  const { outcome } = await pauseAfterFirstData(download);
  // The reader waits past the budget, then reads on: what arrives is a download cut short.
  await new Promise((resolve) => setTimeout(resolve, EXPORT_BUDGET_MS * 2));
  download.resume();
  expect(await outcome).toBe('cut off');
  expect(Date.now() - started).toBeLessThan(EXPORT_BUDGET_MS * 10);
  await vi.waitFor(() => expect(t.app.databasePool.totalCount - t.app.databasePool.idleCount).toBe(0), { timeout: 5000 });
  const errors = logLines.filter((line) => line.level >= 50).map((line) => line.msg);
  expect(errors).toContain('the catalog export stopped half-way');
  expect(logLines.map((line) => line.msg)).not.toContain('the reader left the catalog export half-way');
});
