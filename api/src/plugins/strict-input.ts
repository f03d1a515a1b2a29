// Input rules that the routes' JSON Schemas cannot enforce as ajv runs them, applied once to every route:
//
// - A number in a path or query string is written in plain decimal digits. Ajv's type coercion takes
//   "Infinity", "1e309", "0x10" or " 1" for numbers, and lets the non-finite ones past integer, minimum
//   and maximum checks (ajv#2212): `LIMIT NULL` and ORM errors followed.
// - No number that reaches a handler is non-finite (a body's "Infinity" string coerced by ajv).
// - No string holds a NUL character: PostgreSQL text cannot store or compare one (SQLSTATE 22021).
import type { RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors.ts';
import { appendHook, takesNoBody } from '../lib/route-hooks.ts';

/** Canonical decimal integers only: no sign on zero, no leading zeros, no spaces, exponents or prefixes. */
const DECIMAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;
const DECIMAL_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; anyOf?: JsonSchema[] };

const typesOf = (schema: JsonSchema): string[] =>
  schema.anyOf ? schema.anyOf.flatMap(typesOf) : Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];

/** The numeric properties of a params or querystring schema, with the spelling each must match. */
function numericFields(schema: unknown): [string, RegExp][] {
  const properties = (schema as JsonSchema | undefined)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, property]): [string, RegExp][] => {
    const types = typesOf(property);
    if (types.includes('string')) return [];
    if (types.includes('integer')) return [[name, DECIMAL_INTEGER]];
    if (types.includes('number')) return [[name, DECIMAL_NUMBER]];
    return [];
  });
}

function checkSpelling(values: unknown, fields: [string, RegExp][], where: string) {
  const record = (values ?? {}) as Record<string, unknown>;
  for (const [name, spelling] of fields) {
    const value = record[name];
    if (typeof value === 'string' && !spelling.test(value)) {
      throw badRequest(
        `Invalid ${where} ${name}: must be a ${spelling === DECIMAL_INTEGER ? 'whole number' : 'number'} written in digits.`,
        'VALIDATION',
      );
    }
  }
}

/** Whether a text holds a NUL character, which no input may: a route checking a value early asks the same. */
export const holdsNul = (text: string) => text.includes('\u0000');

/** The first problem in a parsed value, as a short phrase, or null. */
function findProblem(value: unknown, checkStrings: boolean, depth = 0): string | null {
  if (typeof value === 'string') return checkStrings && holdsNul(value) ? 'must not contain a NUL character' : null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'must be a finite number';
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  for (const [key, item] of Object.entries(value)) {
    if (checkStrings && holdsNul(key)) return 'must not contain a NUL character';
    const problem = findProblem(item, checkStrings, depth + 1);
    if (problem) return problem;
  }
  return null;
}

const PLACES = [
  ['params', 'path parameter'],
  ['query', 'query parameter'],
  ['body', 'body'],
] as const;

type Checked = { params: unknown; query: unknown; body: unknown; headers: Record<string, unknown> };

// The hooks are synchronous and each route gets only the checks its input can fail: a catalog read
// runs thousands of times a second, and an async hook costs a promise and a turn of the microtask queue.
export default fp(
  async (app) => {
    app.addHook('onRoute', (route: RouteOptions) => {
      const params = numericFields(route.schema?.params);
      const query = numericFields(route.schema?.querystring);
      const headerNames = Object.keys((route.schema?.headers as JsonSchema | undefined)?.properties ?? {});
      const hasBody = !takesNoBody(route);
      // Runs after comma-params has split `{a},{b}` segments (it puts its hook first), before validation.
      const beforeValidation = (request: Checked, _reply: unknown, done: () => void) => {
        checkSpelling(request.params, params, 'path parameter');
        checkSpelling(request.query, query, 'query parameter');
        for (const [place, label] of PLACES) {
          if (findProblem(request[place], true)) throw badRequest(`Invalid ${label}: text must not contain a NUL character.`, 'VALIDATION');
        }
        for (const name of headerNames) {
          if (findProblem(request.headers[name], true))
            throw badRequest(`Invalid header ${name}: must not contain a NUL character.`, 'VALIDATION');
        }
        done();
      };
      route.preValidation = appendHook(route.preValidation, beforeValidation as never);

      // After validation and coercion: whatever reaches a handler has finite numbers only. Path and
      // query values are strings unless their schema coerced them; a JSON body's 1e999 parses to
      // Infinity with or without a schema.
      const places = PLACES.filter(([place]) =>
        place === 'body' ? hasBody : place === 'params' ? route.schema?.params !== undefined : route.schema?.querystring !== undefined,
      );
      if (places.length === 0) return;
      const afterValidation = (request: Checked, _reply: unknown, done: () => void) => {
        for (const [place, label] of places) {
          if (findProblem(request[place], false)) throw badRequest(`Invalid ${label}: numbers must be finite.`, 'VALIDATION');
        }
        done();
      };
      route.preHandler = appendHook(route.preHandler, afterValidation as never, true);
    });
  },
  { name: 'strict-input' },
);
