import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { EXPORT_COLUMNS, EXPORT_TIME_LIMIT_MS, IMPORT_COLUMNS } from '../../modules/catalog-admin/catalog-transfer-service.ts';
import { STREAMED_DOWNLOAD_COMPRESSION } from '../../plugins/compression.ts';
import { CHECK_TIME_LIMIT_MS, IMPORT_BODY_LIMIT } from '../../request-limits.ts';
import { PositiveInt, responses } from '../../schemas/common.ts';
import { RunImportInput } from '../../schemas/staff.ts';
import { documentRoutes } from '../document-routes.ts';
import { getByIdRoute } from './schemas.ts';

const errors = (...statuses: number[]) => Object.fromEntries([...statuses, 500].map((status) => [status, Type.Ref('ErrorBody')]));

/** Bulk export and import of books with their copies (Admin, beyond the spec). */
const catalogTransferRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office import and export'] });
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.get(
    '/export.csv',
    {
      // A download of the whole catalog outlasts the usual request budget; it stops when the client leaves.
      config: { timeBudgetMs: EXPORT_TIME_LIMIT_MS },
      compress: STREAMED_DOWNLOAD_COMPRESSION,
      // Fastify's HEAD of a GET runs the GET and drops its body: here, the whole catalog read for nothing.
      exposeHeadRoute: false,
      schema: {
        operationId: 'exportCatalog',
        summary: `Every book with its copies as CSV (${EXPORT_COLUMNS.join(', ')}), one row per copy, streamed`,
        response: {
          // Documented as the text that arrives; what the handler sends is that text's stream.
          200: { description: 'The CSV file', content: { 'text/csv': { schema: Type.Unsafe<Readable>({ type: 'string' }) } } },
          ...errors(401, 403, 503),
        },
      },
    },
    async (request, reply) => {
      const file = await app.catalogTransfer.exportFile();
      // A failure half-way (the database gone, the budget spent) ends the download short rather than
      // sending a 500 after the header: the file is then visibly incomplete, and the log says why.
      // An Admin who cancels the download is no fault: Fastify ends what it sends (the compressor,
      // or the file) without an error, which reaches the file as a premature close.
      finished(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') request.log.info('the reader left the catalog export half-way');
        else request.log.error({ err: error }, 'the catalog export stopped half-way');
      });
      // Only a spent budget cuts the file here (its reason Fastify's timeout error). The signal's
      // other abort, the answer's close, is left to Fastify: failing the file with it then would
      // reach the compressor as an error, which @fastify/compress logs as one.
      request.timeBudgetSignal?.addEventListener(
        'abort',
        function (this: AbortSignal) {
          if (this.reason?.name !== 'AbortError') file.destroy(this.reason);
        },
        { once: true },
      );
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="bookshop-books-${day}.csv"`)
        .send(file);
    },
  );

  app.post(
    '/import',
    {
      config: { timeBudgetMs: CHECK_TIME_LIMIT_MS },
      schema: {
        operationId: 'checkCatalogImport',
        summary: `Dry run of a CSV import (${IMPORT_COLUMNS.join(', ')}): counts new, changed, unchanged and invalid rows; writes nothing`,
        consumes: ['text/csv'],
        body: Type.String({ description: 'The CSV file, header first' }),
        response: responses(Type.Ref('ImportJob'), 400, 401, 403, 413),
      },
    },
    async (request, reply) => {
      const job = await app.catalogTransfer.check(request.body, app.auditActor(request), request.timeBudgetSignal);
      // Ended by its budget (which has answered) or by the Admin leaving: there is no one to answer.
      if (!job) return reply;
      return { data: job };
    },
  );

  getByIdRoute(
    app,
    ['getCatalogImport', 'An import: its dry run, and while it runs, its progress', '/import/:id'],
    'ImportJob',
    app.catalogTransfer.job,
  );

  app.post(
    '/import/:id/run',
    {
      config: { stepUp: true },
      schema: {
        operationId: 'runCatalogImport',
        summary: 'Write a checked import, as a background job; a file with invalid rows writes nothing unless they are skipped',
        params: Type.Object({ id: PositiveInt }),
        body: RunImportInput,
        response: responses(Type.Ref('ImportJob'), 400, 401, 403, 404, 409),
      },
    },
    async (request) => ({ data: await app.catalogTransfer.run(request.params.id, request.body.skipInvalid, app.auditActor(request)) }),
  );
};

export default catalogTransferRoutes;
