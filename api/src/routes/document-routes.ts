import type { FastifyInstance, RouteOptions } from 'fastify';

/** The OpenAPI fields a whole group of routes shares. */
interface SharedDocumentation {
  tags?: string[];
  security?: Array<Record<string, string[]>>;
}

/**
 * Gives every route this plugin (and its children) registers from now on the documentation its
 * group shares: a file's tag, a subtree's session. A route's own fields still win, so each route
 * declares only what is its own, and the security the subtree's gate enforces is written once,
 * beside that gate.
 */
export function documentRoutes(app: FastifyInstance, shared: SharedDocumentation): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    route.schema = { ...shared, ...route.schema };
  });
}
