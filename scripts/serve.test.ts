// What can be tested of the Docker setup without a Docker engine: the image's command
// (scripts/serve.ts) run for real against an empty database, and the compose file's wiring.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from './lib/database.ts';

const root = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

async function emptyDatabase() {
  const base = inject('pgBaseUrl');
  const name = `serve_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: `${base}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return `${base}/${name}`;
}

function serve(env: Record<string, string>) {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['scripts/serve.ts'], {
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
  it('migrates and seeds an empty database, then serves the API in production mode', async () => {
    const port = await freePort();
    const { output } = serve({
      NODE_ENV: 'production',
      DATABASE_URL: await emptyDatabase(),
      JWT_SECRET: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
      FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
      ISBN_LOOKUP: 'bundled',
    });
    const deadline = Date.now() + 60_000;
    let health: Response | undefined;
    while (Date.now() < deadline) {
      health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
      if (health?.ok) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(health?.ok, output()).toBe(true);
    const types = (await (await fetch(`http://127.0.0.1:${port}/api/public/book-copy/types/`)).json()) as { data: unknown[] };
    expect(types.data).toHaveLength(10);
    expect(output()).toContain('applied migrations');
  });

  it('refuses to start in production with the default (missing) JWT secret', async () => {
    const { exited, output } = serve({ NODE_ENV: 'production', DATABASE_URL: await emptyDatabase(), JWT_SECRET: '' });
    expect(await exited).toBe(1);
    expect(output()).toMatch(/JWT_SECRET must be set/);
  });
});

describe('docker-compose.yml', () => {
  it('wires PostgreSQL, the identity emulator and the shop built from the Dockerfile', async () => {
    const compose = parse(await readFile(path.join(root, 'docker-compose.yml'), 'utf8'));
    const dockerfile = await readFile(path.join(root, 'Dockerfile'), 'utf8');
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'db', 'identity']);
    for (const target of [compose.services.app.build.target, compose.services.identity.build.target]) {
      expect(dockerfile).toMatch(new RegExp(`^FROM .+ AS ${target}$`, 'm'));
    }
    const env = compose.services.app.environment;
    const db = compose.services.db.environment;
    expect(env.DATABASE_URL).toBe(`postgresql://${db.POSTGRES_USER}:${db.POSTGRES_PASSWORD}@db:5432/${db.POSTGRES_DB}`);
    expect(env.FIREBASE_AUTH_EMULATOR_HOST).toBe('identity:9099');
    expect(env.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?/); // no default secret ships
    expect(dockerfile).toMatch(/^USER node$/m);
    // Every variable the app is given is one the configuration reads.
    const config = await readFile(path.join(root, 'api/src/config.ts'), 'utf8');
    for (const name of Object.keys(env)) expect(config, name).toContain(`env.${name}`);
  });
});
