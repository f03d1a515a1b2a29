// Starts the API: reads the configuration once, builds the app, listens, and closes cleanly on
// SIGINT/SIGTERM (in-flight requests finish, the database pool closes).
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';

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

const app = await buildApp(config);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    app.log.info(`${signal}: closing`);
    await app.close();
    process.exit(0);
  });
}
await app.listen({ port: config.port, host: config.host });
