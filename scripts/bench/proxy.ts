// The compose proxy (docker/nginx.conf) in front of the bench's instances: the same server block,
// with its upstream naming the instances' ports instead of Docker's `app` service, run by the
// machine's nginx in a throwaway prefix.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../lib/database.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * nginx's configuration: the compose file's server block, its upstream the given instances. Its access
 * log goes to `accessLog`, or nowhere: the bench leaves it off, as it always has, to compare runs.
 */
export async function proxyConfig(instances: string[], port: number, prefix: string, accessLog?: string) {
  const shop = await readFile(path.join(root, 'docker/nginx.conf'), 'utf8');
  const servers = instances.map((url) => `    server ${new URL(url).host};`).join('\n');
  const logLine = accessLog ? `    access_log ${accessLog} shop;` : '    access_log off;';
  const block = shop
    .replace(/^resolver .*$/m, '')
    .replace(/^ {4}server app:3000 resolve;$/m, servers)
    .replace(/^ {4}listen 80;$/m, `    listen 127.0.0.1:${port};`)
    .replace(/^ {4}access_log \S+ shop;$/m, logLine);
  if (!block.includes(servers) || !block.includes(`listen 127.0.0.1:${port}`) || !block.includes(logLine))
    throw new Error('docker/nginx.conf no longer has the upstream, listen or access_log line the bench replaces');
  return [
    'worker_processes 1;',
    'daemon off;',
    'master_process on;',
    `pid ${prefix}/nginx.pid;`,
    `error_log ${prefix}/error.log warn;`,
    'events { worker_connections 4096; }',
    'http {',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${prefix}/${kind};`),
    block,
    '}',
    '',
  ].join('\n');
}

const NO_NGINX =
  "the scale-out runs the machine's nginx, and there is none on the PATH (Debian: apt-get install nginx); BENCH_MIX_SCALE_OUT=0 leaves the scale-out out";

/** Stops the bench before its first step, not after a quarter of an hour of the direct mix, when nginx cannot run. */
export function checkProxyCanStart() {
  const version = spawnSync('nginx', ['-v'], { stdio: 'ignore' });
  if (version.error) throw new Error(NO_NGINX);
}

export async function startProxy(instances: string[], options: { accessLog?: string } = {}) {
  const prefix = path.join(os.tmpdir(), `bookshop-bench-proxy-${process.pid}-${Date.now()}`);
  await mkdir(prefix, { recursive: true });
  const port = await freePort();
  const file = path.join(prefix, 'nginx.conf');
  await writeFile(file, await proxyConfig(instances, port, prefix, options.accessLog));
  const child: ChildProcess = spawn('nginx', ['-p', prefix, '-c', file, '-e', `${prefix}/error.log`], { stdio: 'ignore' });
  // A spawn that fails (no nginx) is an 'error' event, which unheard would end the bench with a stack.
  let failedToStart: Error | null = null;
  child.once('error', (error) => {
    failedToStart = error;
  });
  // A bench that fails half-way must not leave nginx running: a graceful quit as the process exits.
  const stopOnExit = () => child.kill('SIGQUIT');
  process.once('exit', stopOnExit);
  child.once('exit', () => process.off('exit', stopOnExit));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (failedToStart)
      throw new Error((failedToStart as NodeJS.ErrnoException).code === 'ENOENT' ? NO_NGINX : `nginx did not start: ${failedToStart}`);
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): see ${prefix}/error.log`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 100) throw new Error('nginx did not answer');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    /** nginx's error log, where the shipped config does not send it elsewhere. */
    errorLog: `${prefix}/error.log`,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGQUIT');
      await exited;
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
