// Starts the API: reads the configuration once, builds the app, listens, and shuts down gracefully on
// SIGTERM/SIGINT (and on a crash): it stops accepting connections, lets in-flight requests finish,
// then closes the database pool. A close that hangs past the bound is cut short with exit code 1.
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { writeGraceMs } from './lib/write-budget.ts';
import { PROVIDER_ROUTE_TIME_LIMIT_MS } from './plugins/identity.ts';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// Database sessions without the settings the API sends as it connects (plugins/prisma.ts) are refused
// as a wrong setting is: a message, exit code 1.
const app = await buildApp(config).catch((error: unknown) => {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
});

// Node's server.close() ends the connections idle at that moment; one busy then would stay open
// after its answer (keep-alive) and hold the shutdown. Answers sent while closing end theirs.
let closing = false;
// Synchronous: it runs on every answer, and an async hook costs each one a promise.
app.addHook('onSend', (_request, reply, payload, done) => {
  if (closing) reply.header('connection', 'close');
  done(null, payload);
});

/**
 * A request may take its whole budget (a sign-up's or a reset's is longer, for the identity provider),
 * and a write under way at its end the grace past it (decision 18); shutdown allows that plus time to
 * close the pool.
 */
const LONGEST_REQUEST_BUDGET_MS = Math.max(config.requestTimeoutMs, PROVIDER_ROUTE_TIME_LIMIT_MS);
const SHUTDOWN_BOUND_MS = LONGEST_REQUEST_BUDGET_MS + writeGraceMs(config.database) + 5000;

// A catalog import running here is this instance's own work, not a request: it is let finish before the
// pool closes (one transaction; 10,000 rows take about 2 s), within the longest request budget from the
// signal, so a deploy's restart does not undo an Admin's file. One still running then is rolled back
// whole, in the grace and the 5 s left (its ROLLBACK may wait for its statement under way to end).
let closingSince = 0;
app.addHook('onClose', async () => {
  if (!(await app.catalogTransfer.importsEndedBy(closingSince + LONGEST_REQUEST_BUDGET_MS))) {
    app.log.warn('a catalog import was still running at shutdown: it is rolled back, and its job reads failed');
  }
});

closeWithGrace(
  {
    delay: SHUTDOWN_BOUND_MS,
    logger: { error: (message: unknown) => app.log.error(message) },
    onTimeout: (delay) => app.log.error(`shutdown took over ${delay} ms: exiting with requests still open`),
  },
  async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'unexpected error: closing');
    else app.log.info(`${signal ?? 'close'}: closing (in-flight requests finish, then the database pool closes)`);
    closing = true;
    closingSince = Date.now();
    // A keep-alive connection whose answer ends after the close began (it was being written when the
    // idle ones were closed) would otherwise wait out the keep-alive timeout (72 s, and a client that
    // trusts it keeps it as long) and hold the shutdown: once closing, one that falls idle ends at once.
    app.server.keepAliveTimeout = 1;
    await app.close();
  },
);
await app.listen({ port: config.port, host: config.host });
