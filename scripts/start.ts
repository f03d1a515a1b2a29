// `npm start`: the whole shop on one origin (http://localhost:3000 unless PORT says otherwise):
// embedded PostgreSQL (unless DATABASE_URL is set), migrations, seed data when the database is empty,
// the identity emulator, the built web app and the API. `npm run dev` serves the web app through
// Vite's dev server with hot reload instead. Ctrl-C stops everything it started.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEMO_ACCOUNTS } from '../seed/seed-data.ts';
import { freePort, startDevelopmentDatabase } from './lib/database.ts';
import { FIREBASE_PROJECT_ID, startIdentityEmulator } from './lib/identity-emulator.ts';
import { startMailCatcher } from './lib/mail-catcher.ts';
import { applyMigrations, rootDir } from './lib/schema-engine.ts';
import { ensureWebBuild, webDist } from './lib/web-build.ts';

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? 3000);
const step = (message: string) => console.log(`\u001b[36m▸\u001b[0m ${message}`);
const stops: (() => Promise<unknown>)[] = [];

let stopping: Promise<never> | null = null;
/** Stops what was started, last first, then exits; once, however many times it is asked. */
function shutdown(code = 0) {
  stopping ??= (async () => {
    for (const stop of [...stops].reverse()) await stop().catch(() => {});
    process.exit(code);
  })();
  return stopping;
}
/** What to stop at the end; a step that ends after a signal began the stop is stopped at once. */
function started(stop: () => Promise<unknown>) {
  if (stopping) {
    void stop().catch(() => {});
    throw new StartStopped();
  }
  stops.push(stop);
}
class StartStopped extends Error {}
// A second signal while stopping (the identity emulator may take seconds to write its accounts) ends
// this process through its exit handlers, so what it started is still told to stop; a closed
// terminal (SIGHUP) stops it as Ctrl-C does, not by the signal's default, which runs no handler.
const SIGNAL_EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
for (const [signal, exitCode] of Object.entries(SIGNAL_EXIT_CODES)) {
  process.on(signal, () => (stopping ? process.exit(exitCode) : void shutdown()));
}

try {
  let databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) step('using the database at DATABASE_URL');
  else {
    step('starting the database (embedded PostgreSQL, data in .data/postgres)');
    const db = await startDevelopmentDatabase();
    started(db.stop);
    databaseUrl = db.url;
  }

  step('migrating');
  const applied = await applyMigrations(databaseUrl);
  step(applied.length ? `applied ${applied.join(', ')}` : 'database schema is up to date');

  const { isDatabaseEmpty, seedDatabase } = await import('../seed/seed.ts');
  if (await isDatabaseEmpty(databaseUrl)) {
    step('seeding demo data');
    await seedDatabase(databaseUrl, (m) => step(m));
  }

  if (!process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    step('starting the identity emulator (Firebase Auth, accounts kept in .data/identity)');
    const emulator = await startIdentityEmulator({
      port: Number(process.env.FIREBASE_AUTH_EMULATOR_PORT ?? 9099),
      keepAccountsIn: path.join(rootDir, '.data/identity'),
    });
    started(emulator.stop);
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  }

  // A local mail catcher stands in for a mail provider: the shop's e-mails are read on its page.
  let mailPage: string | null = null;
  if (!process.env.SMTP_URL && !process.env.SMTP_HOST && process.env.MAIL_DISABLED !== 'true') {
    step('starting the mail catcher');
    const catcher = await startMailCatcher({ webPort: Number(process.env.MAIL_CATCHER_PORT ?? 8025) }).catch(() => startMailCatcher());
    started(catcher.stop);
    process.env.SMTP_URL = catcher.smtpUrl;
    mailPage = catcher.webUrl.replace('127.0.0.1', 'localhost');
  }

  if (!dev) ensureWebBuild(step);

  const apiPort = dev ? await freePort() : port;
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    PORT: String(apiPort),
    WEB_DIST: dev ? '' : webDist,
    FIREBASE_PROJECT_ID: process.env.FIREBASE_PROJECT_ID ?? FIREBASE_PROJECT_ID,
  });
  // Under Vite the shop is at Vite's port, not the API's: the e-mails' links (written outside any
  // request, so from PUBLIC_URL or the API's own port) must lead there.
  if (dev && !process.env.PUBLIC_URL) process.env.PUBLIC_URL = `http://localhost:${port}`;
  step('starting the API');
  const { loadConfig } = await import('../api/src/config.ts');
  const { buildApp } = await import('../api/src/app.ts');
  const app = await buildApp(loadConfig());
  started(() => app.close());
  await app.listen({ port: apiPort, host: process.env.HOST ?? '127.0.0.1' });

  if (dev) {
    step('starting Vite (hot reload)');
    const vite = spawn(path.join(rootDir, 'node_modules/.bin/vite'), ['--port', String(port), '--strictPort'], {
      cwd: path.join(rootDir, 'web'),
      stdio: 'inherit',
      env: { ...process.env, API_ORIGIN: `http://127.0.0.1:${apiPort}` },
    });
    started(async () => vite.kill('SIGTERM'));
  }

  // As the seed makes them, so the list cannot drift from what signs in.
  const demoAccounts = Object.entries(DEMO_ACCOUNTS)
    .map(([role, { email, password }]) => `    ${(role[0]!.toUpperCase() + role.slice(1)).padEnd(8)}${email.padEnd(22)}/ ${password}`)
    .join('\n');
  console.log(`
  Bookshop is running at \u001b[1mhttp://localhost:${port}\u001b[0m  (API docs: http://localhost:${port}/api/docs)

${mailPage ? `  E-mail the shop sends: ${mailPage}\n\n` : ''}  Demo accounts:
${demoAccounts}

  Press Ctrl-C to stop.
`);
} catch (error) {
  // A step stopped by the signal's stop is that stop's to end.
  if (!(error instanceof StartStopped)) console.error(error instanceof Error ? error.message : error);
  await shutdown(1);
}
