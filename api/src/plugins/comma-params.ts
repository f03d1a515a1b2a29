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
      const split = async (request: { params: unknown }) => {
        const params = request.params as Record<string, string>;
        const raw = params[key] ?? '';
        const parts = raw.split(',');
        const values = [...parts.slice(0, names.length - 1), parts.slice(names.length - 1).join(',')];
        const next: Record<string, string | undefined> = { ...params };
        delete next[key];
        names.forEach((name, i) => {
          next[name] = i < parts.length ? values[i] : undefined;
        });
        request.params = next;
      };
      const existing = route.preValidation;
      route.preValidation = existing ? [split, ...(Array.isArray(existing) ? existing : [existing])] : split;
    });
  },
  { name: 'comma-params' },
);
