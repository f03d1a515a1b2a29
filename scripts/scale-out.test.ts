// The Docker image's runtime and the scale-out wiring, as far as they can be tested without a Docker
// engine: the server compiled to JavaScript exactly as the image's build stage does (tsc with
// tsconfig.build.json), run with plain `node` as two replicas starting at once on one empty database,
// and the compose file, the nginx proxy and the Dockerfile read and checked against each other.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { emptyTestDatabase } from './empty-test-database.ts';
import { freePort } from './lib/database.ts';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFile(path.join(root, file), 'utf8');

describe('the compiled server (the image runs `node scripts/serve.js`, no tsx)', () => {
  // Inside the checkout, so that packages resolve from its node_modules as from the image's.
  const out = path.join(root, 'dist', `compiled-test-${process.pid}`);
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    const tsc = spawnSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--outDir', out], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    // What the Dockerfile's runtime stage adds beside the compiled files: the API's own packages
    // (npm nests some in api/node_modules), migrations, books.csv, and the compiled shared rules.
    await symlink(path.join(root, 'api/node_modules'), path.join(out, 'api/node_modules'));
    await cp(path.join(root, 'prisma'), path.join(out, 'prisma'), { recursive: true });
    await cp(path.join(root, 'seed/books.csv'), path.join(out, 'seed/books.csv'));
    const rules = path.join(out, 'node_modules/@bookshop/rules');
    await mkdir(rules, { recursive: true });
    await cp(path.join(out, 'packages/rules/src'), path.join(rules, 'src'), { recursive: true });
    await writeFile(path.join(rules, 'package.json'), (await read('packages/rules/package.json')).replaceAll('.ts"', '.js"'));
  }, 120_000);
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await rm(out, { recursive: true, force: true });
  });

  it('is plain JavaScript: no import of a .ts file is left', async () => {
    const serve = await readFile(path.join(out, 'scripts/serve.js'), 'utf8');
    expect(serve).toMatch(/from ["']\.\/lib\/schema-engine\.js["']/);
    expect(serve).not.toMatch(/\.ts['"]/);
    const server = await readFile(path.join(out, 'api/src/server.js'), 'utf8');
    expect(server).not.toMatch(/\.ts['"]/);
  });

  it('two replicas starting at once on an empty database: one migrates and seeds, both serve, nothing twice', {
    timeout: 120_000,
  }, async () => {
    const { url: databaseUrl } = await emptyTestDatabase('scale');
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      TRUST_PROXY: '1',
      // The emulator is allowed only for a demo on this machine (config.ts).
      PUBLIC_URL: 'https://localhost',
      MAIL_DISABLED: 'true',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
      ALLOW_IDENTITY_EMULATOR: 'true',
      ADMIN_EMAIL: 'owner@shop.example',
      ADMIN_PASSWORD: 'a long and private passphrase',
      ISBN_LOOKUP: 'bundled',
    };
    const replicas = await Promise.all(
      [0, 1].map(async () => {
        const port = await freePort();
        const child = spawn(process.execPath, ['scripts/serve.js'], { cwd: out, env: { ...env, PORT: String(port) } });
        children.push(child);
        let output = '';
        child.stdout?.on('data', (d) => (output += d));
        child.stderr?.on('data', (d) => (output += d));
        return { url: `http://127.0.0.1:${port}`, output: () => output, child };
      }),
    );
    for (const replica of replicas) {
      const deadline = Date.now() + 90_000;
      let ready: Response | undefined;
      while (Date.now() < deadline && replica.child.exitCode === null && !ready?.ok) {
        ready = await fetch(`${replica.url}/api/health/ready`).catch(() => undefined);
        if (!ready?.ok) await new Promise((r) => setTimeout(r, 250));
      }
      expect(ready?.ok, replica.output()).toBe(true);
      const types = (await (await fetch(`${replica.url}/api/public/book-copy/types/`)).json()) as { data: unknown[] };
      expect(types.data).toHaveLength(10);
    }
    const outputs = replicas.map((r) => r.output());
    expect(outputs.filter((o) => o.includes('applied migrations'))).toHaveLength(1);
    expect(outputs.filter((o) => o.includes('database schema is up to date'))).toHaveLength(1);

    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const shipped = (await readdir(path.join(root, 'prisma/migrations'), { withFileTypes: true })).filter((e) => e.isDirectory());
    const { rows } = await db.query<{ migrations: string; categories: string; admins: string }>(
      `SELECT (SELECT count(*) FROM _prisma_migrations) AS migrations, (SELECT count(*) FROM book_types) AS categories,
              (SELECT count(*) FROM employees) AS admins`,
    );
    await db.end();
    expect(rows[0]).toEqual({ migrations: String(shipped.length), categories: '10', admins: '1' });
  });
});

describe('scale-out with docker compose', () => {
  it('runs N app replicas behind nginx, trusting its one hop, restarting, with every port on 127.0.0.1', async () => {
    const compose = parse(await read('docker-compose.yml'));
    const services = compose.services;
    expect(Object.keys(services).sort()).toEqual(['app', 'db', 'identity', 'mail', 'proxy']);
    // Every service says when it is healthy, and each waits for the health of what it needs.
    for (const [name, service] of Object.entries<{ healthcheck?: { test?: unknown }; depends_on?: Record<string, { condition: string }> }>(
      services,
    )) {
      expect(service.healthcheck?.test, name).toBeDefined();
      for (const [needed, { condition }] of Object.entries(service.depends_on ?? {}))
        expect(condition, `${name} → ${needed}`).toBe('service_healthy');
    }
    expect(Object.keys(services.app.depends_on).sort()).toEqual(['db', 'identity', 'mail']);
    expect(String(services.app.deploy.replicas)).toMatch(/^\$\{APP_REPLICAS:-([2-9]|\d\d+)\}$/);
    for (const [name, service] of Object.entries<{ restart?: string }>(services)) expect(service.restart, name).toBe('unless-stopped');
    const published = Object.values<{ ports?: string[] }>(services).flatMap((s) => s.ports ?? []);
    expect(published.length).toBeGreaterThan(0);
    for (const port of published) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    expect(services.app.ports).toBeUndefined(); // replicas are reached through the proxy only
    expect(await read('docker-compose.yml')).toMatch(/local demo/i);

    const env = services.app.environment;
    expect(env).toMatchObject({ TRUST_PROXY: '1', SEED_DEMO: 'true', ALLOW_IDENTITY_EMULATOR: 'true', NODE_ENV: 'production' });
    expect(services.proxy.depends_on.app.condition).toBe('service_healthy');

    // The proxy: the mounted config exists, balances over the `app` service, and is the single hop.
    const [mount] = services.proxy.volumes as string[];
    const [source, target] = mount!.split(':');
    expect(target).toBe('/etc/nginx/conf.d/default.conf');
    const nginx = await read(source!);
    expect(services.proxy.image).toMatch(/^nginx:1\.(2[89]|[3-9]\d)/); // `server … resolve` in open-source nginx
    expect(nginx).toMatch(/server app:3000 resolve;/);
    expect(nginx).toMatch(/proxy_pass http:\/\/shop;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/); // replaces the client's claim: one hop
    expect(nginx).toMatch(/location \/api\/metrics \{\s*return 404;/);
    expect(nginx).toMatch(/proxy_set_header Host \$http_host;/); // keeps the port the Origin check compares
  });

  it('the image: Node 24 LTS, compiled JavaScript, liveness as its health check (compose waits on readiness)', async () => {
    const dockerfile = await read('Dockerfile');
    const stages = dockerfile.split(/^FROM /m).slice(1);
    for (const stage of stages) expect(stage).toMatch(/^node:24-bookworm-slim AS /);
    const runtime = stages.find((s) => / AS runtime\n/.test(s))!;
    expect(runtime).toMatch(/^CMD \["node", "scripts\/serve\.js"\]$/m);
    expect(runtime).not.toMatch(/tsx/);
    // The image's health check is liveness (a database blip must not have every replica replaced); compose's own is readiness.
    expect(runtime).toMatch(/^HEALTHCHECK .*\/api\/health\/live'/m);
    expect(JSON.stringify(parse(await read('docker-compose.yml')).services.app.healthcheck.test)).toContain('/api/health/ready');
    // The compiled files come from where tsconfig.build.json writes them.
    const build = JSON.parse(await read('tsconfig.build.json')) as { compilerOptions: { outDir: string } };
    expect(runtime).toContain(`COPY --from=build /app/${build.compilerOptions.outDir}/ ./`);
    expect(stages[0]).toContain('tsc -p tsconfig.build.json');
    // Every workspace's package.json is there before `npm ci`, or the lockfile does not match.
    const workspaces = ['api', 'web', ...(await readdir(path.join(root, 'packages'))).map((p) => `packages/${p}`)];
    for (const stage of stages.filter((s) => s.includes('npm ci'))) {
      for (const workspace of workspaces) expect(stage).toContain(`COPY ${workspace}/package.json ${workspace}/`);
    }
    // What the runtime copies from the checkout exists.
    for (const [, source] of runtime.matchAll(/^COPY --from=build \/app\/(\S+) /gm)) {
      if (source!.startsWith('dist/') || source === 'web/dist') continue; // built in the build stage
      await expect(readFile(path.join(root, source!)).catch((e: NodeJS.ErrnoException) => e.code)).resolves.not.toBe('ENOENT');
    }
    // engines says what the code needs; the image's Node satisfies it.
    const pkg = JSON.parse(await read('package.json')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('>=20.19');
  });
});
