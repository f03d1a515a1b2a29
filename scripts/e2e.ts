// `npm run test:e2e`: the real shop on a throwaway database (migrated and seeded), with the real
// identity emulator and the built web app, then Playwright in Chromium against it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../api/src/app.ts';
import { DEFAULT_CATALOG_CACHE_MS, loadConfig } from '../api/src/config.ts';
import { seedDatabase } from '../seed/seed.ts';
import { findChromium, noBrowserMessage } from './lib/browser.ts';
import { freePort, startTestCluster } from './lib/database.ts';
import { FIREBASE_PROJECT_ID, startIdentityEmulator } from './lib/identity-emulator.ts';
import { startMailCatcher } from './lib/mail-catcher.ts';
import { applyMigrations, rootDir } from './lib/schema-engine.ts';
import { ensureWebBuild, webDist } from './lib/web-build.ts';

const log = (m: string) => console.log(`e2e: ${m}`);

/**
 * A stand-in for a frontend hosted on another site: a blank page on localhost, which is another
 * site than the shop's 127.0.0.1 (and, being loopback, one Chromium lets call the API).
 */
async function serveBlankFrontend(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Another site</title><h1>Another site</h1>');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, 'localhost', resolve));
  return { origin: `http://localhost:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
// Chromium first: without one, nothing is started (e2e/playwright.config.ts reads CHROMIUM_PATH).
const chromium = await findChromium();
if (!chromium) {
  console.error(noBrowserMessage());
  process.exit(1);
}
process.env.CHROMIUM_PATH = chromium;

const cleanups: (() => Promise<unknown>)[] = [];
let status = 1;
try {
  ensureWebBuild(log);
  log('starting a throwaway database');
  const cluster = await startTestCluster();
  cleanups.push(cluster.stop);
  const dbName = `e2e_${process.pid}`;
  const admin = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const databaseUrl = `${cluster.baseUrl}/${dbName}`;
  await applyMigrations(databaseUrl);
  await seedDatabase(databaseUrl, () => {});

  log('starting the identity emulator');
  const emulator = await startIdentityEmulator();
  cleanups.push(emulator.stop);
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;

  log('starting the mail catcher');
  const catcher = await startMailCatcher();
  cleanups.push(catcher.stop);

  const serve = async (env: Record<string, string>) => {
    const port = await freePort();
    const app = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl,
        FIREBASE_PROJECT_ID,
        FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
        SMTP_URL: catcher.smtpUrl,
        MAIL_POLL_MS: '200',
        ...env,
      }),
    );
    cleanups.unshift(() => app.close());
    await app.listen({ port, host: '127.0.0.1' });
    return `http://127.0.0.1:${port}`;
  };
  // The catalog cache on, as in production: the stories see a change through its notices.
  const shopUrl = await serve({ WEB_DIST: webDist, CATALOG_CACHE_MS: String(DEFAULT_CATALOG_CACHE_MS) });
  log(`the shop is at ${shopUrl}`);
  // A second instance on the same database that allows one frontend on another site, and a second
  // frontend it does not allow (e2e/cross-site.spec.ts).
  const [allowedFrontend, otherFrontend] = [await serveBlankFrontend(), await serveBlankFrontend()];
  cleanups.push(allowedFrontend.close, otherFrontend.close);
  const crossSiteApiUrl = await serve({ CORS_ORIGINS: allowedFrontend.origin });

  // Not spawnSync: this process serves the shop while Playwright runs.
  const playwright = spawn(
    path.join(rootDir, 'node_modules/.bin/playwright'),
    ['test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)],
    {
      cwd: rootDir,
      stdio: 'inherit',
      env: {
        ...process.env,
        E2E_BASE_URL: shopUrl,
        E2E_DATABASE_URL: databaseUrl,
        E2E_EMULATOR_HOST: emulator.host,
        E2E_CROSS_SITE_API_URL: crossSiteApiUrl,
        E2E_CROSS_SITE_ORIGIN: allowedFrontend.origin,
        E2E_UNLISTED_ORIGIN: otherFrontend.origin,
        E2E_MAIL_PAGE: catcher.webUrl,
      },
    },
  );
  const [code] = (await once(playwright, 'exit')) as [number | null];
  status = code ?? 1;
} catch (error) {
  console.error(error);
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  process.exit(status);
}
