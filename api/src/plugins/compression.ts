// JSON answers above 1 KB leave compressed (brotli or gzip, as the browser accepts). Brotli at a low
// quality: on the fly, its top settings cost far more CPU than the bytes they save. Built assets are
// compressed once at build time instead (plugins/web.ts).
import { constants } from 'node:zlib';
import compress, { type FastifyCompressOptions } from '@fastify/compress';
import fp from 'fastify-plugin';
import { takesNoBody } from '../lib/route-hooks.ts';

export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** The shop's answers: JSON above 1 KB, brotli or gzip as the browser accepts. */
const ANSWER_COMPRESSION = {
  threshold: COMPRESSION_THRESHOLD_BYTES,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 6 },
} satisfies FastifyCompressOptions;

/**
 * A route's `compress` for a long download streamed as it is read (the catalog export, 87 MB at a
 * million books): each encoding's quickest useful setting, since the server compresses the whole
 * download as it goes, on the core that also reads it from the database. On the export's own file
 * (17.4 MB at 200,000 books), brotli's quality 2 took 0.23–0.30 s for 4.7 MB where quality 4 took
 * 0.85 s for 3.3 MB, and gzip's level 1 (nginx's default) 0.23 s for 5.9 MB where level 6 took 0.6 s
 * for 4.9 MB. (A route's options replace all of the plugin's, so the rest are restated.)
 */
export const STREAMED_DOWNLOAD_COMPRESSION = {
  ...ANSWER_COMPRESSION,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } },
  zlibOptions: { level: 1 },
} satisfies FastifyCompressOptions;

export default fp(
  async (app) => {
    // A GET or HEAD has no body to inflate: its routes skip the request-decompression hook, which
    // @fastify/compress would otherwise run on every catalog read (this onRoute runs before the plugin's).
    app.addHook('onRoute', (route) => {
      if (route.decompress === undefined && takesNoBody(route)) {
        route.decompress = false;
      }
    });
    await app.register(compress, { global: true, ...ANSWER_COMPRESSION });
  },
  { name: 'compression' },
);
