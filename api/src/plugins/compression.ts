// JSON answers above 1 KB leave compressed (brotli or gzip, as the browser accepts). Brotli at a low
// quality: on the fly, its top settings cost far more CPU than the bytes they save. Built assets are
// compressed once at build time instead (plugins/web.ts).
import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import fp from 'fastify-plugin';
import { takesNoBody } from '../lib/route-hooks.ts';

export const COMPRESSION_THRESHOLD_BYTES = 1024;

export default fp(
  async (app) => {
    // A GET or HEAD has no body to inflate: its routes skip the request-decompression hook, which
    // @fastify/compress would otherwise run on every catalog read (this onRoute runs before the plugin's).
    app.addHook('onRoute', (route) => {
      if (route.decompress === undefined && takesNoBody(route)) {
        route.decompress = false;
      }
    });
    await app.register(compress, {
      global: true,
      threshold: COMPRESSION_THRESHOLD_BYTES,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: 6 },
    });
  },
  { name: 'compression' },
);
