// The catalog export downloaded over a real connection, as a browser does: from a catalog far larger
// than the sockets' buffers, and stalled after its first data, as a reader that stops reading is.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { createTestDatabase } from './helpers.ts';

/**
 * Adds 20,000 books with 2 KB names, some 40 MB of export: uncompressed, far more than the sockets'
 * buffers hold, so the server has to wait for its reader; compressed, still a second or so of the
 * server's work.
 */
export async function addBigCatalog(db: Pick<Awaited<ReturnType<typeof createTestDatabase>>, 'query'>) {
  await db.query(
    `INSERT INTO books (name, search_text, author_id, type_id)
     SELECT repeat('x', 2000) || g, 'x', (SELECT min(id) FROM authors), (SELECT min(id) FROM book_types)
     FROM generate_series(1, 20000) g`,
  );
}

/** A GET over a real connection (the app listening on a free port, if it is not yet), once its answer's head has come. */
export async function getOverHttp(app: FastifyInstance, path: string, headers: Record<string, string>) {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return new Promise<http.IncomingMessage>((resolve) => http.get({ host: '127.0.0.1', port, path, headers }, resolve));
}

/**
 * Waits for the download's first data and pauses it. Its `outcome` resolves, once the reader reads on,
 * with how the download ended: as a whole file, or cut off (what a file short of its rows must be).
 */
export async function pauseAfterFirstData(download: http.IncomingMessage) {
  await once(download, 'data');
  download.pause();
  const outcome = new Promise<'ended as a whole file' | 'cut off'>((resolve) => {
    download.once('end', () => resolve('ended as a whole file'));
    download.once('error', () => resolve('cut off'));
  });
  return { outcome };
}
