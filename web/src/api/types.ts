// Names for the generated types (schema.d.ts), so screens use the API's own shapes instead of
// hand-written copies that can drift from openapi.yaml.
import type { components, operations } from './schema';

export type Schemas = components['schemas'];

/** The JSON body an operation of openapi.yaml takes. */
export type BodyOf<Operation extends keyof operations> =
  NonNullable<operations[Operation]['requestBody']> extends {
    content: { 'application/json': infer Body };
  }
    ? Body
    : never;
