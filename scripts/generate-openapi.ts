// Writes openapi.yaml from the routes' schemas (no database needed). `npm run generate:openapi` runs
// this, then openapi-typescript to write the web's typed client (web/src/api/schema.d.ts) from it.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { buildApp } from '../api/src/app.ts';
import { loadConfig } from '../api/src/config.ts';

const root = path.resolve(import.meta.dirname, '..');
// The Prisma client connects lazily, so a placeholder URL is enough to read the routes.
const app = await buildApp(loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgresql://unused@127.0.0.1:1/unused' }), { logger: false });
await app.ready();
await writeFile(path.join(root, 'openapi.yaml'), stringify(app.swagger(), { lineWidth: 0 }));
await app.close();
console.log('wrote openapi.yaml');
