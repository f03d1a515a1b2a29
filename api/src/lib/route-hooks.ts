// What the plugins that give each route its own hooks (onRoute: input checks, metrics, compression)
// share: adding a hook beside the route's own, and telling a route that never has a request body.
import type { RouteOptions } from 'fastify';

/** `hook` added to a route's hooks of one kind: after those it has, or before them with `first`. */
export const appendHook = <T>(existing: T | T[] | undefined, hook: T, first = false): T | T[] => {
  if (!existing) return hook;
  const hooks = Array.isArray(existing) ? existing : [existing];
  return first ? [hook, ...hooks] : [...hooks, hook];
};

/** Methods whose requests Fastify never parses a body for. */
const BODYLESS = new Set(['GET', 'HEAD']);

/** Whether every method of the route is one without a request body. */
export const takesNoBody = (route: Pick<RouteOptions, 'method'>) => [route.method].flat().every((method) => BODYLESS.has(method));
