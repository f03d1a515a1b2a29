// An ETag on every answer to a GET or HEAD, and 304 Not Modified when the client's If-None-Match
// holds it: a browser revalidates a catalog read without its body. A route may set its own (a copy's
// version). Only reads: answering 304 to a write that a matching If-None-Match reached (as a global
// @fastify/etag did) would tell the client nothing was done after the write was done (RFC 9110
// 13.1.2 keeps 304 to GET and HEAD), and hashing every write's answer was work for nothing. Each read
// route gets the hook of its own (onRoute), so the writes run no hook at all. It runs before the
// compression's: the tag is the body's, whatever the encoding, and a 304 is never compressed first.
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { appendHook, takesNoBody } from '../lib/route-hooks.ts';

/** A strong ETag of the body as sent. crypto.hash is the one-shot digest: for small bodies far cheaper than a createHash chain. */
export const bodyTag = (payload: string | Buffer) => `"${hash('sha1', payload, 'base64')}"`;

/** If-None-Match names `tag`: one tag, as browsers send it, weak or strong (a weak comparison, as 304 asks). */
const matches = (ifNoneMatch: string | undefined, tag: string) =>
  ifNoneMatch !== undefined && (ifNoneMatch === tag || ifNoneMatch === `W/${tag}` || `W/${ifNoneMatch}` === tag);

function tagAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) {
  // A stream (a built asset, an export) is neither held to be hashed nor replaced by a 304: the file
  // it has opened would stay open. @fastify/static answers a built asset's conditional request itself.
  if (!(typeof payload === 'string' || Buffer.isBuffer(payload))) return done(null, payload);
  let tag = reply.getHeader('etag') as string | undefined;
  if (tag === undefined) {
    tag = bodyTag(payload);
    reply.header('etag', tag);
  }
  if (matches(request.headers['if-none-match'], tag)) {
    reply.code(304);
    return done(null, '');
  }
  done(null, payload);
}

export default fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      if (takesNoBody(route)) route.onSend = appendHook(route.onSend, tagAnswer as never, true);
    });
  },
  { name: 'entity-tags' },
);
