// What can be tested of the Docker setup without a Docker engine: the image's command
// (scripts/serve.ts) run for real against an empty database, and the compose file's wiring.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { emptyTestDatabase } from './empty-test-database.ts';
import { freePort } from './lib/database.ts';
import { STARTUP_LOCK_KEY } from './lib/startup-lock.ts';

const root = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

const emptyDatabase = async () => (await emptyTestDatabase('serve')).url;

/** What every production start here needs, with the identity emulator when `emulator` (allowed). */
const productionEnv = (databaseUrl: string, port: number, emulator = true) => ({
  NODE_ENV: 'production',
  TRUST_PROXY: 'false',
  // The emulator is allowed only for a demo on this machine (config.ts).
  PUBLIC_URL: emulator ? `http://localhost:${port}` : 'https://shop.example.com',
  MAIL_DISABLED: 'true',
  DATABASE_URL: databaseUrl,
  JWT_SECRET: randomBytes(32).toString('hex'),
  PORT: String(port),
  HOST: '127.0.0.1',
  ...(emulator
    ? { FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'), ALLOW_IDENTITY_EMULATOR: 'true' }
    : { FIREBASE_PROJECT_ID: 'bookshop-production', FIREBASE_WEB_API_KEY: 'AIzaSyProductionKey' }),
});

/** Waits, a minute at most, for the instance on `port` to answer its health check; its output says why not. */
async function untilHealthy(port: number, output: () => string) {
  const deadline = Date.now() + 60_000;
  let health: Response | undefined;
  while (Date.now() < deadline && !health?.ok) {
    health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
    if (!health?.ok) await new Promise((r) => setTimeout(r, 250));
  }
  expect(health?.ok, output()).toBe(true);
}

function serve(env: Record<string, string>) {
  // node with tsx as an import hook: a kill then reaches the server, not only a tsx wrapper.
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

describe('the production entry point (the Docker image command)', () => {
  it('migrates and seeds the catalog alone into an empty database; the first Admin comes from the environment', async () => {
    const port = await freePort();
    const { output } = serve({
      ...productionEnv(await emptyDatabase(), port),
      ADMIN_EMAIL: 'Owner@Shop.example',
      ADMIN_PASSWORD: 'a long and private passphrase',
      ISBN_LOOKUP: 'bundled',
    });
    const base = `http://127.0.0.1:${port}`;
    await untilHealthy(port, output);
    const types = (await (await fetch(`${base}/api/public/book-copy/types/`)).json()) as { data: unknown[] };
    expect(types.data).toHaveLength(10);
    expect(output()).toContain('applied migrations');
    const login = (account: string, password: string) =>
      fetch(`${base}/api/public/authentication/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account, password }),
      });
    // No demo account exists: the README's published passwords open nothing.
    for (const [account, password] of [
      ['admin@bookshop.test', 'Admin123!'],
      ['seller@bookshop.test', 'Seller123!'],
      ['client@bookshop.test', 'Client123!'],
    ]) {
      expect((await login(account!, password!)).status).toBe(401);
    }
    const owner = await login('owner@shop.example', 'a long and private passphrase');
    expect(owner.status).toBe(200);
    expect(((await owner.json()) as { data: string }).data).toBe('Admin');
    expect(output()).toMatch(/warning|emulator/i);
  });

  it("refuses to start while an employee, the demo client or any of the seed's clients keeps a demo password, unless SEED_DEMO=true says it is a demo on this machine", async () => {
    const url = await emptyDatabase();
    const { applyMigrations } = await import('./lib/schema-engine.ts');
    const { seedDatabase } = await import('../seed/seed.ts');
    await applyMigrations(url);
    await seedDatabase(url, () => {}, { people: true });
    const port = await freePort();
    const env = productionEnv(url, port, false);
    const refused = serve(env);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/admin@bookshop\.test still has a demo password/);
    // The staff's passwords changed, the demo client's is still the published one.
    const { passwordHasher } = await import('../api/src/modules/accounts/passwords.ts');
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const [{ password_hash: realHash }] = (await db.query('SELECT password_hash FROM employees WHERE email = $1', ['admin@bookshop.test']))
      .rows as [{ password_hash: string }];
    await db.query('UPDATE employees SET password_hash = $1', [await passwordHasher(10).hash('a long and private passphrase')]);
    // Forty staff more: all their checks are made (their hasher refuses more than a few dozen at once).
    await db.query(
      `INSERT INTO employees (first_name, last_name, gender, birth_date, email, phone_number, address, password_hash, role)
       SELECT 'Staff', 'Member', 'Female', '1990-01-01', 'staff-' || n || '@shop.example', '0555000000', '1 Main Street', password_hash, 'Seller'
       FROM employees, generate_series(1, 40) AS n WHERE email = 'seller@bookshop.test'`,
    );
    const clientRefused = serve(env);
    expect(await clientRefused.exited).toBe(1);
    expect(clientRefused.output()).toMatch(/the client client@bookshop\.test still has a demo password/);
    // The demo client's changed too: the seed's other clients, given the same password, are still found.
    await db.query('UPDATE clients SET password_hash = $1 WHERE account = $2', [
      await passwordHasher(10).hash('another private phrase'),
      'client@bookshop.test',
    ]);
    const seededRefused = serve(env);
    expect(await seededRefused.exited).toBe(1);
    expect(seededRefused.output()).toMatch(/the client [a-z]+\.[a-z]+\.\d+@example\.com still has a demo password/);
    await db.query('UPDATE employees SET password_hash = $1 WHERE email = $2', [realHash, 'admin@bookshop.test']);
    await db.end();
    // A demo is one on this machine (config.ts); at the real address, SEED_DEMO=true is refused outright.
    const published = serve({ ...env, SEED_DEMO: 'true' });
    expect(await published.exited).toBe(1);
    expect(published.output()).toMatch(/SEED_DEMO=true is for a demo on this machine only/);
    const demo = serve({ ...env, SEED_DEMO: 'true', PUBLIC_URL: `https://localhost:${port}` });
    await untilHealthy(port, demo.output);
  });

  it('never seeds over a shop first started with SEED=false: started again without it, its people are kept', async () => {
    const url = await emptyDatabase();
    const port = await freePort();
    const env = { ...productionEnv(url, port), ADMIN_EMAIL: 'owner@shop.example', ADMIN_PASSWORD: 'a long and private passphrase' };
    const categories = async () =>
      ((await (await fetch(`http://127.0.0.1:${port}/api/public/book-copy/types/`)).json()) as { data: unknown[] }).data;

    const first = serve({ ...env, SEED: 'false' });
    await untilHealthy(port, first.output);
    expect(await categories()).toEqual([]);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // The shop's own: a client, and its Admin as the first start made it.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO clients (first_name, last_name, phone_number, account, password_hash)
         VALUES ('Ada', 'Reader', '0555000000', 'ada@shop.example', 'not a hash: never signs in')`,
      );
      const people = 'SELECT id, email AS who FROM employees UNION ALL SELECT id, account FROM clients ORDER BY who';
      const before = await db.query(people);
      expect(before.rows).toHaveLength(2);

      const refused = serve({ ...env, SEED: 'False' });
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain('SEED must be true or false (it is "False")');

      const again = serve(env);
      await untilHealthy(port, again.output);
      expect(await categories()).toEqual([]);
      expect((await db.query(people)).rows).toEqual(before.rows);
      // ADMIN_EMAIL is still set, and the shop has its Admin: the start says it made no other.
      expect(again.output()).toContain('ADMIN_EMAIL and ADMIN_PASSWORD are not used');
      expect(first.output()).not.toContain('ADMIN_EMAIL and ADMIN_PASSWORD are not used');
    } finally {
      await db.end();
    }
  });

  it('a stop while it waits its turn to start (another replica migrating) ends it at once, not at the kill', async () => {
    const url = await emptyDatabase();
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      // Another instance holds the start-up lock, as while it migrates.
      await db.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
      const waiting = serve(productionEnv(url, await freePort()));
      const deadline = Date.now() + 30_000;
      const waitsForLock = async () =>
        (
          await db.query(
            "SELECT 1 FROM pg_stat_activity WHERE application_name = 'bookshop-startup' AND wait_event_type = 'Lock' AND wait_event = 'advisory'",
          )
        ).rowCount === 1;
      while (!(await waitsForLock())) {
        expect(Date.now() < deadline, waiting.output()).toBe(true);
        await new Promise((r) => setTimeout(r, 100));
      }
      waiting.child.kill('SIGTERM');
      expect(await waiting.exited).toBe(143);
      expect(waiting.output()).toContain('SIGTERM while starting: stopped before serving');
    } finally {
      await db.end();
    }
  });

  it('refuses to start in production with the identity emulator and no explicit opt-in', async () => {
    const { exited, output } = serve({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://shop.example.com',
      MAIL_DISABLED: 'true',
      DATABASE_URL: await emptyDatabase(),
      JWT_SECRET: randomBytes(32).toString('hex'),
      FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
    });
    expect(await exited).toBe(1);
    expect(output()).toMatch(/ALLOW_IDENTITY_EMULATOR=true/);
  });

  it('refuses to start in production with the default (missing) JWT secret', async () => {
    const { exited, output } = serve({ NODE_ENV: 'production', DATABASE_URL: await emptyDatabase(), JWT_SECRET: '' });
    expect(await exited).toBe(1);
    expect(output()).toMatch(/JWT_SECRET must be set/);
  });
});

describe('docker-compose.yml', () => {
  it('wires PostgreSQL, the identity emulator, the mail catcher and the shop built from the Dockerfile', async () => {
    const compose = parse(await readFile(path.join(root, 'docker-compose.yml'), 'utf8'));
    const dockerfile = await readFile(path.join(root, 'Dockerfile'), 'utf8');
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'db', 'identity', 'mail', 'proxy']); // proxy: scripts/scale-out.test.ts
    for (const target of [compose.services.app.build.target, compose.services.identity.build.target]) {
      expect(dockerfile).toMatch(new RegExp(`^FROM .+ AS ${target}$`, 'm'));
    }
    // The shop is the last stage: a plain `docker build .` builds it, not the emulator.
    expect([...dockerfile.matchAll(/^FROM .+ AS (\S+)$/gm)].at(-1)?.[1]).toBe(compose.services.app.build.target);
    const env = compose.services.app.environment;
    const db = compose.services.db.environment;
    // The same password variable on both sides, with no default: compose stops when it is not set.
    expect(db.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(env.DATABASE_URL).toBe(
      `postgresql://${db.POSTGRES_USER}:\${POSTGRES_PASSWORD:?Set POSTGRES_PASSWORD}@db:5432/${db.POSTGRES_DB}`,
    );
    expect(env.FIREBASE_AUTH_EMULATOR_HOST).toBe('identity:9099');
    expect(env.SMTP_URL).toBe('smtp://mail:1025');
    expect(env.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?/); // no default secret ships
    expect(dockerfile).toMatch(/^USER node$/m);
    // Every container's log is rotated: Docker's default keeps every line.
    for (const [name, service] of Object.entries(compose.services as Record<string, { logging?: { options?: Record<string, string> } }>))
      expect(service.logging?.options, name).toMatchObject({ 'max-size': '10m', 'max-file': '5' });
    // Every variable the app is given is one the configuration reads.
    const config = await readFile(path.join(root, 'api/src/config.ts'), 'utf8');
    for (const name of Object.keys(env)) expect(config, name).toContain(`env.${name}`);
  });
});
