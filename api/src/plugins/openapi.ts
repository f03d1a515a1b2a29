// The OpenAPI document is generated from the route schemas; `openapi.yaml` at the repository root is
// its committed copy (a test keeps the two equal). Swagger UI at /api/docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

export const OPENAPI_INFO = {
  title: 'Bookshop API',
  version: '1.0.0',
  description:
    'REST API of the online bookshop: public catalog, client storefront (cart, orders, profile) and employee back-office. ' +
    'Every success body is `{ data }`; every failure is `{ data: null, error: { code, message } }`. Sessions are httpOnly cookies.',
};

export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: OPENAPI_INFO,
        servers: [{ url: '/' }],
        components: {
          securitySchemes: {
            clientSession: { type: 'apiKey', in: 'cookie', name: 'bs_client_at' },
            employeeSession: { type: 'apiKey', in: 'cookie', name: 'bs_employee_at' },
          },
        },
      },
      refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) ?? `def-${i}` },
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs' });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
