// One server of the throughput comparison, in its own process so that the load generator (in the
// bench's process) never shares an event loop with it. `ours` is the real app as production builds
// it, its request log included (LOG_LEVEL info, a line a request; the parent sends this process's
// stdout to /dev/null, so the write is counted and a log collector's read of it is not); `bare` is
// the baseline (bare-catalog.ts), which logs nothing. Both get the same database and pool size.
// Tells its parent the port it listens on.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../../api/src/app.ts';
import { DEVELOPMENT_JWT_SECRET, loadConfig } from '../../api/src/config.ts';
import { bareCatalog } from './bare-catalog.ts';
import { loopDelayMs } from './stats.ts';

const kind = process.argv[2];
const databaseUrl = process.env.DATABASE_URL ?? '';
const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);
const app =
  kind === 'bare'
    ? bareCatalog(databaseUrl, poolSize, undefined, process.env.JWT_SECRET ?? DEVELOPMENT_JWT_SECRET)
    : await buildApp(
        loadConfig({
          NODE_ENV: 'test',
          DATABASE_URL: databaseUrl,
          DATABASE_POOL_SIZE: String(poolSize),
          DATABASE_REPLICA_URL: process.env.DATABASE_REPLICA_URL,
          WEB_DIST: process.env.WEB_DIST,
          CATALOG_CACHE_MS: process.env.CATALOG_CACHE_MS,
          LOG_LEVEL: 'info',
        }),
      );
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
// How long a request could have waited for this server's one thread since the parent last asked
// (the mix asks after each step): a stall here stalls every call, whatever it reads.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
process.on('message', (message) => {
  if (message !== 'loop-delay') return;
  process.send?.({ loopDelay: loopDelayMs(loopDelay) });
  loopDelay.reset();
});
process.on('disconnect', () => void app.close().then(() => process.exit(0)));
