// Shared by the fault, shutdown and multi-instance tests: the real server entry point in a child
// process (so an unhandled error ends a process we watch, not the test worker), a cookie-keeping HTTP
// client, and buyers with carts. Everything targets 127.0.0.1 only, and every loop is bounded.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, inject } from 'vitest';
import { freePort } from '../../scripts/lib/database.ts';

const apiDir = path.resolve(import.meta.dirname, '..');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

// Registered when a test file imports this module, so it runs at the end of that file. (An afterAll
// registered inside beforeAll, where servers start, is never called, and the server outlived the run.)
const serverProcesses = new Set<ChildProcess>();
afterAll(() => {
  for (const child of serverProcesses) if (child.exitCode === null) child.kill('SIGKILL');
});

/**
 * Statement and lock timeouts and a request budget longer than a test may hold a row lock (up to 25 s
 * on a loaded machine), so the work behind it waits instead of failing. A lock wait counts towards the
 * statement timeout (5 s by default; the lock timeout alone is 2 s).
 */
export const PATIENT_TIMEOUTS = {
  DATABASE_STATEMENT_TIMEOUT_MS: '30000',
  DATABASE_LOCK_TIMEOUT_MS: '30000',
  REQUEST_TIMEOUT_MS: '30000',
};

/** Runs api/src/server.ts (the production entry's last step) on `databaseUrl` and waits for liveness. */
export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  // node itself with tsx as an import hook, not the tsx wrapper: the wrapper runs the server in a
  // grandchild that a SIGKILL (the kill test's, or afterAll's) would leave running.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      FIREBASE_PROJECT_ID: 'demo-bookshop',
      FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
      ...env,
    },
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  serverProcesses.add(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const live = await fetch(`${url}/api/health/live`).catch(() => undefined);
    if (live?.ok) return { url, child, output: () => output, exited };
    await sleep(100);
  }
  throw new Error(`the server did not start:\n${output}`);
}

export interface HttpAnswer {
  status: number;
  body: { data?: unknown; error?: { code: string; message: string; requestId?: string } } | null;
  headers: Headers;
  ms: number;
}

/** A browser-like client: keeps its session cookies, never throws on a status. */
export function httpClient(baseUrl: string) {
  const jar = new Map<string, string>();
  async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    const started = Date.now();
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    }).catch(() => undefined);
    // No answer at all (refused, reset, timed out) is status 0: the tests count it as a failure.
    if (!response) return { status: 0, body: null, headers: new Headers(), ms: Date.now() - started };
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, eq), pair!.slice(eq + 1)];
      if (value) jar.set(name, value);
      else jar.delete(name);
    }
    const text = await response.text();
    let parsed: HttpAnswer['body'] = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed, headers: response.headers, ms: Date.now() - started };
  }
  return {
    call,
    /** The session cookies, to hand to another client (another instance, same browser). */
    cookies: () => new Map(jar),
    useCookies: (cookies: Map<string, string>) => {
      jar.clear();
      for (const [k, v] of cookies) jar.set(k, v);
    },
  };
}
export type HttpClient = ReturnType<typeof httpClient>;

type Query = <T extends Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/** New client accounts with the demo client's password (its hash copied, so no hashing here). */
export async function createBuyers(query: Query, count: number): Promise<string[]> {
  const [demo] = await query<{ password_hash: string }>("SELECT password_hash FROM clients WHERE account = 'client@bookshop.test'");
  const accounts = Array.from({ length: count }, () => `buyer-${randomUUID()}@example.com`);
  await query(
    `INSERT INTO clients (first_name, last_name, phone_number, account, password_hash)
     SELECT 'Buyer', 'Test', '0555000000', account, $2 FROM unnest($1::text[]) AS account`,
    [accounts, demo!.password_hash],
  );
  return accounts;
}

/** A book copy of its own, so the test knows every unit sold of it. */
export async function createCopy(query: Query, quantity: number, price = '10.50'): Promise<number> {
  const [row] = await query<{ id: number }>('INSERT INTO book_copies (book_id, quantity, price) VALUES (1, $1, $2) RETURNING id', [
    quantity,
    price,
  ]);
  return row!.id;
}

export async function signIn(client: HttpClient, account: string, password = 'Client123!') {
  for (let attempt = 0; attempt < 20; attempt++) {
    const answer = await client.call('POST', '/api/public/authentication/login', { account, password });
    if (answer.status === 200) return;
    // A busy password hasher or a database hiccup says 503: wait as told and try again.
    if (answer.status !== 503) throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    await sleep(200);
  }
  throw new Error(`sign-in kept failing for ${account}`);
}

/** Runs `work` from `workers` loops at once until `stopAt` (a time) or `isDone()`; bounded either way. */
export async function runLoad(workers: number, until: () => boolean, work: (worker: number) => Promise<void>) {
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (!until()) await work(worker);
    }),
  );
}
