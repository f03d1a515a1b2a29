// The spec's paths put several parameters in one segment: `/by-type/{type},{PageNumber},{PageSize}`.
// Fastify's router keeps such a segment as ONE parameter named "type,:pageNumber,:pageSize"; this
// plugin splits its value into the named parameters before schema validation. The last parameter
// takes the rest of the segment, so a name may contain commas (`/author/{id},{name}`).
import fp from 'fastify-plugin';

export default fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const key = route.url
        .split('/')
        .find((segment) => segment.startsWith(':') && segment.includes(',:'))
        ?.slice(1);
      if (!key) return;
      const names = key.split(',:');
      const last = names.length - 1;
      // Synchronous, like the input checks' hooks: it runs on every category page, where an async hook
      // costs a promise and a turn of the microtask queue.
      const split = (request: { params: unknown }, _reply: unknown, done: () => void) => {
        const params = request.params as Record<string, string>;
        const parts = (params[key] ?? '').split(',');
        const next: Record<string, string | undefined> = {};
        for (const name in params) if (name !== key) next[name] = params[name];
        for (let i = 0; i < last; i++) next[names[i]!] = parts[i];
        next[names[last]!] = parts.length > last ? parts.slice(last).join(',') : undefined;
        request.params = next;
        done();
      };
      const existing = route.preValidation;
      route.preValidation = existing ? [split, ...(Array.isArray(existing) ? existing : [existing])] : split;
    });
  },
  { name: 'comma-params' },
);
