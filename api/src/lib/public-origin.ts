import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The shop's address for links it writes (canonical links, the sitemap, a reset e-mail's way back):
 * PUBLIC_URL, else where this request came, as the trusted proxies report it.
 */
export const publicOrigin = (config: Pick<Config, 'publicUrl'>, request: FastifyRequest) =>
  config.publicUrl ?? `${request.protocol}://${request.host}`;
