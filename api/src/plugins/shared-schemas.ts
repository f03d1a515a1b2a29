// Every named ($id) schema (schemas/index.ts), registered once at the root so any route subtree can
// $ref it and the OpenAPI document lists each once under components.schemas.
import fp from 'fastify-plugin';
import { namedSchemas } from '../schemas/index.ts';

export default fp(
  async (app) => {
    for (const schema of namedSchemas) app.addSchema(schema);
  },
  { name: 'shared-schemas' },
);
