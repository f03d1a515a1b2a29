// Property-based fuzzing of every operation in openapi.yaml: inputs generated from each operation's
// schemas, and deliberately broken ones, sent as anonymous, as a client and as an Admin. Whatever
// comes in, the API must answer a 4xx or 2xx in the `{ data, error }` shape, never a 5xx, never a
// stack trace or SQL, and stay healthy.
//
// FUZZ_RUNS sets the cases per operation (default 200; 5000 for a deep run), FUZZ_SEED the seed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cookieNames } from '../src/plugins/sessions.ts';
import { createTestApp, DEMO, type TestApp } from './helpers.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

/** The subset of JSON Schema that openapi.yaml uses. */
interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  format?: string;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  method: string;
  template: string;
  operationId: string;
  parameters: Parameter[];
  body?: Schema;
  /** The operation takes a CSV file as its body (the bulk import's dry run), not JSON. */
  csvBody: boolean;
  /** Its success is a CSV file (the export), not the JSON envelope. */
  csvAnswer: boolean;
}

const document = parse(readFileSync(path.resolve(import.meta.dirname, '../../openapi.yaml'), 'utf8')) as {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters?: Parameter[];
        requestBody?: { content: Record<string, { schema: Schema }> };
        responses: Record<string, { content?: Record<string, unknown> }>;
      }
    >
  >;
  components: { schemas: Record<string, Schema> };
};
const resolve = (schema: Schema): Schema =>
  schema.$ref ? resolve(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]!) : schema;

const operations: Operation[] = Object.entries(document.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, op]) => ({
    method: method.toUpperCase(),
    template,
    operationId: op.operationId,
    parameters: op.parameters ?? [],
    body: op.requestBody?.content['application/json']?.schema,
    csvBody: Boolean(op.requestBody?.content['text/csv']),
    csvAnswer: Boolean(op.responses['200']?.content?.['text/csv']),
  })),
);

// ---- Hostile values ---------------------------------------------------------------------------

/** Numbers as a path or query string carries them: odd spellings, non-finite, huge, negative zero. */
const oddNumberTexts = fc.constantFrom(
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '1e21',
  '1e300',
  '-0',
  '0x10',
  '0b1',
  '0o7',
  '1.5',
  ' 1',
  '1 ',
  '+1',
  '01',
  '1e2',
  '1_0',
  'NaN',
  '',
  '0',
  '-1',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999',
  '１',
  '١',
  'true',
  'null',
);
/** Numbers a JSON body can carry, written as raw JSON text (1e309 parses to Infinity). */
const oddJsonNumbers = fc.constantFrom(
  '1e309',
  '-1e309',
  '1e21',
  '1e300',
  '-0',
  '1.5',
  '0.1e1',
  '2147483648',
  '9007199254740993',
  '-1',
  '0',
);

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const controlCharacter = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));
const likeWildcards = fc.constantFrom('%', '_', '\\', '%%', '\\%', '_%_', 'Fantasy\\', 'fant%', 'Fant_sy', '[a-z]', '*', '?');

const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    'Fantasy\u0000',
    '\\',
    '%',
    '_',
    "'; DROP TABLE books; --",
    '" OR 1=1 --',
    '\u202e\u2066',
    '\ud800',
    '\udfff',
    'a\ud83d',
    '😀📚',
    '👩‍👩‍👧‍👦',
    'ﬁ',
    'e\u0301\u0301\u0301',
    'İı',
    ' ',
    '\t\n\r',
    '\u0007\u001b[31m',
    '\ufeff',
    '\u2028\u2029',
    '2023-02-31',
    '0000-01-01',
    '10000-01-01',
    '-001000-01-01',
    '2020-13-01',
    'Fantasy',
    'fantasy',
    'Processing',
    'Shipped',
    'Client',
    'Admin',
    'Male',
    '__proto__',
    'constructor',
    '{}',
    '[]',
    'undefined',
  ),
  oddNumberTexts,
  likeWildcards,
  fc.string({
    unit: fc.oneof(controlCharacter, loneSurrogate, fc.constantFrom('%', '_', '\\', ',', '/', '?', '#', '&', '=', ' ', 'a', '😀')),
  }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 190, maxLength: 320 }),
  fc.constantFrom(1, 1000, 1 << 20).map((n) => 'x'.repeat(n)),
);

/** Marks a number that JSON.stringify cannot write (1e309, -0, 9007199254740993) as raw JSON text. */
class RawJson {
  constructor(readonly text: string) {}
}

const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  oddJsonNumbers.map((text) => new RawJson(text)),
  fc.double(),
  fc.integer(),
  fc.constantFrom(null, true, false, 0, -1, 2147483647, 2147483648, Number.MAX_SAFE_INTEGER, 1e21, {}, [], [null], { $ne: 1 }),
  fc.array(fc.oneof(fc.integer(), hostileString), { maxLength: 5 }),
  fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 100, maxLength: 250 }),
);

// ---- Values from a schema ---------------------------------------------------------------------

/** A value that the schema accepts (as far as a schema says: ids may well not exist). */
function fromSchema(raw: Schema, hostile: boolean): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  const valid = validFromSchema(schema, hostile);
  // In hostile mode, any node may be replaced by a broken value.
  return hostile ? fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: hostileJson }) : valid;
}

function validFromSchema(schema: Schema, hostile: boolean): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return fc.oneof(...variants.map((s) => fromSchema(s, hostile)));
  switch (schema.type) {
    case 'integer':
      return fc.oneof(
        fc.integer({ min: schema.minimum ?? -(2 ** 31), max: Math.min(schema.maximum ?? 2 ** 31 - 1, 2 ** 31 - 1) }),
        // Small ids and pages exist in the seed; they reach the services' real paths.
        fc.integer({ min: Math.max(schema.minimum ?? 0, 0), max: Math.max(schema.minimum ?? 0, Math.min(schema.maximum ?? 20, 20)) }),
      );
    case 'number':
      return fc.oneof(
        fc.double({ min: schema.minimum ?? -1e12, max: schema.maximum ?? 1e12, noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: Math.max(schema.minimum ?? 0, 0), max: Math.min(schema.maximum ?? 1000, 1000) }).map((n) => n / 100),
      );
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string':
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 60, 60), unit: 'grapheme' });
    case 'array':
      return fc.array(fromSchema(schema.items ?? {}, hostile), { maxLength: Math.min(schema.maxItems ?? 5, 5) });
    case 'object': {
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, fromSchema(s, hostile)]));
      // Broken bodies miss required fields too.
      return fc.record(properties, { requiredKeys: hostile ? [] : (schema.required ?? []) });
    }
    default:
      return hostileJson;
  }
}

// ---- Requests -----------------------------------------------------------------------------------

type Role = 'anonymous' | 'client' | 'admin' | 'forged';

interface FuzzRequest {
  role: Role;
  params: Record<string, string>;
  rawSuffix: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  body?: { payload: string | undefined; contentType: string | undefined };
}

/** Percent-encodes a path segment; lone surrogates (which encodeURIComponent refuses) as their raw UTF-16 bytes. */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text.replace(/[\s\S]/gu, (char) => {
      if (char.length === 2 || char.charCodeAt(0) < 0xd800 || char.charCodeAt(0) > 0xdfff) return encodeURIComponent(char);
      const code = char.charCodeAt(0);
      return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    });
  }
}

/** Header values as HTTP can carry them (no NUL, no line breaks). */
const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e]/g, '');

const rawPathFragments = fc.constantFrom('', '', '', '%', '%zz', '%00', '%C0%AF', '%ED%A0%80', '%2F..', '%2C', ',', ',,1', '/');

function paramValue(schema: Schema): fc.Arbitrary<string> {
  const s = resolve(schema);
  const numeric = s.type === 'integer' || s.type === 'number';
  return fc.oneof(
    { weight: 4, arbitrary: validFromSchema(s, false).map(String) },
    { weight: numeric ? 3 : 1, arbitrary: oddNumberTexts },
    { weight: 2, arbitrary: hostileString },
  );
}

const malformedJson = fc.constantFrom(
  '{',
  '{"a":',
  '[1,',
  'nul',
  '{"a":1}}',
  "{'a':1}",
  '\u0000',
  '\ufeff{}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '',
  ' ',
  '"just a string"',
  '12',
  'null',
  'true',
  '[]',
);
const wrongContentTypes = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/jsonx',
  'application/octet-stream',
  '',
);

/** JSON text of a generated value, writing RawJson numbers as they are. */
function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return v;
  });
  return (text ?? 'null').replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i) => raws[Number(i)]!);
}

const extraFields = fc.dictionary(
  fc.constantFrom('id', 'unitsSold', 'orderItems', 'clientId', 'role', 'isAdmin', '__proto__', 'constructor', 'Id', 'x'),
  hostileJson,
  { maxKeys: 3 },
);

function bodyArbitrary(schema: Schema | undefined): fc.Arbitrary<FuzzRequest['body']> {
  const json = (value: fc.Arbitrary<unknown>) => value.map((v) => ({ payload: toJson(v), contentType: 'application/json' }));
  const asSchema = schema ?? { type: 'object', properties: {} };
  return fc.oneof(
    { weight: 4, arbitrary: json(fromSchema(asSchema, false)) },
    { weight: 5, arbitrary: json(fromSchema(asSchema, true)) },
    {
      weight: 2,
      arbitrary: json(
        fc
          .tuple(fromSchema(asSchema, false), extraFields)
          .map(([value, extra]) => (value && typeof value === 'object' && !Array.isArray(value) ? { ...value, ...extra } : value)),
      ),
    },
    { weight: 1, arbitrary: json(hostileJson) },
    { weight: 1, arbitrary: malformedJson.map((payload) => ({ payload, contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fromSchema(asSchema, false), wrongContentTypes)
        .map(([value, contentType]) => ({ payload: toJson(value), contentType: contentType || undefined })),
    },
    { weight: 1, arbitrary: fc.constant({ payload: undefined, contentType: undefined }) },
    { weight: 1, arbitrary: fc.constant({ payload: `{"x":"${'y'.repeat(1 << 20)}"}`, contentType: 'application/json' }) },
  );
}

/**
 * A CSV file as a hostile Admin might send it: the import's columns in any order and case, or
 * others, then rows of valid-looking, odd and hostile cells, quoted or not, with any line ends.
 */
const csvCell = fc.oneof(
  fc.constantFrom(
    '9780261103344',
    '0261103342',
    '9780000000001',
    '978-0-261-10334-4',
    '12.50',
    '0',
    '-1',
    '1e3',
    'true',
    'no',
    'constructor',
    '__proto__',
    '',
  ),
  hostileString.map((text) => text.replace(/[\r\n]/g, ' ')),
  hostileString.map((text) => `"${text.replace(/"/g, '""')}"`),
  fc.constant('"unclosed'),
);
const csvFile = fc
  .tuple(
    fc.shuffledSubarray(['isbn', 'ISBN', 'price', 'stock', 'available', 'title', 'x'], { minLength: 0 }),
    fc.array(fc.array(csvCell, { maxLength: 6 }), { maxLength: 8 }),
    fc.constantFrom('\n', '\r\n', '\r'),
  )
  .map(([header, rows, end]) => [header.join(','), ...rows.map((row) => row.join(','))].join(end));
const csvBodyArbitrary: fc.Arbitrary<FuzzRequest['body']> = fc.oneof(
  { weight: 6, arbitrary: csvFile.map((payload) => ({ payload, contentType: 'text/csv' })) },
  { weight: 1, arbitrary: hostileString.map((payload) => ({ payload, contentType: 'text/csv' })) },
  { weight: 1, arbitrary: bodyArbitrary(undefined) },
);

function requestArbitrary(op: Operation): fc.Arbitrary<FuzzRequest> {
  const byPlace = (place: Parameter['in']) => op.parameters.filter((p) => p.in === place);
  const pathParams = byPlace('path');
  const queryParams = byPlace('query');
  const headerParams = byPlace('header');
  return fc.record({
    role: fc.constantFrom<Role>('anonymous', 'client', 'admin', 'admin', 'client', 'forged'),
    params: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, paramValue(p.schema)]))) as fc.Arbitrary<Record<string, string>>,
    rawSuffix: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, rawPathFragments]))) as fc.Arbitrary<Record<string, string>>,
    query: fc.array(
      fc.tuple(
        queryParams.length
          ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...queryParams.map((p) => p.name)) }, { weight: 1, arbitrary: hostileString })
          : hostileString,
        fc.oneof(...(queryParams.length ? queryParams.map((p) => paramValue(p.schema)) : [hostileString])),
      ),
      { maxLength: queryParams.length ? 3 : 1 },
    ),
    headers: fc.record(
      Object.fromEntries(
        headerParams.map((p) => [p.name, fc.oneof(validFromSchema(resolve(p.schema), false).map(String), hostileString).map(headerSafe)]),
      ),
      { requiredKeys: [] },
    ) as fc.Arbitrary<Record<string, string>>,
    body: op.csvBody
      ? fc.oneof({ weight: 9, arbitrary: csvBodyArbitrary }, { weight: 1, arbitrary: fc.constant(undefined) })
      : op.body || op.method !== 'GET'
        ? fc.oneof({ weight: op.body ? 9 : 1, arbitrary: bodyArbitrary(op.body) }, { weight: 1, arbitrary: fc.constant(undefined) })
        : fc.constant(undefined),
  });
}

function urlOf(op: Operation, request: FuzzRequest) {
  const pathname = op.template.replace(
    /\{(\w+)\}/g,
    (_m, name: string) => encodeSegment(request.params[name] ?? '') + (request.rawSuffix[name] ?? ''),
  );
  const search = request.query.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&');
  return search ? `${pathname}?${search}` : pathname;
}

// ---- The answers ------------------------------------------------------------------------------

/** Text that would betray internals: a stack frame, a source path, an ORM or SQL message. */
const LEAK =
  /\n\s+at |node_modules|\.ts:\d+|\.js:\d+|prisma|PrismaClient|invalid input syntax|invalid byte sequence|syntax error at|violates|out of range for type|\bSELECT\b|\bINSERT INTO\b|\bDELETE FROM\b|\bpg_|SQLSTATE|stack/i;
const LONGEST_LIST = 1000;
const STACK = /\n\s+at |node_modules\/|\/src\/.*\.ts:\d+/;

function checkAnswer(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  describeRequest: () => string,
  csvAnswer = false,
) {
  const fail = (why: string) => {
    throw new Error(`${why}\n${describeRequest()}\n-> ${res.statusCode} ${res.body.slice(0, 500)}`);
  };
  if (res.statusCode >= 500) fail('5xx answer');
  if (STACK.test(res.body)) fail('a stack trace in the body');
  if (csvAnswer && res.statusCode < 300) {
    // A file: CSV that parses, under the header the operation promises.
    if (!String(res.headers['content-type']).startsWith('text/csv')) fail('a CSV answer of another type');
    try {
      parseCsv(res.body, { columns: true });
    } catch {
      fail('the CSV answer does not parse');
    }
    return;
  }
  let body: { data?: unknown; error?: { code?: unknown; message?: unknown } | null };
  try {
    body = JSON.parse(res.body);
  } catch {
    return fail('the body is not JSON');
  }
  if (!body || typeof body !== 'object' || !('data' in body)) fail('the body has no data');
  if (res.statusCode >= 400) {
    if (body.data !== null) fail('a failure with data');
    if (typeof body.error?.code !== 'string' || typeof body.error?.message !== 'string')
      fail('a failure without error.code and error.message');
    if (LEAK.test(JSON.stringify(body.error))) fail('internals (SQL, ORM or stack) in the error');
  } else {
    if (body.error != null) fail('a success with an error');
    // A page is at most 100 rows and an unpaged list at most 1,000: a longer one means a bound was lost (LIMIT NULL).
    const lists = [body.data, ...(body.data && typeof body.data === 'object' ? Object.values(body.data) : [])].filter(Array.isArray);
    if (lists.some((list) => list.length > LONGEST_LIST)) fail('a list longer than any page');
  }
}

// ---- The test ---------------------------------------------------------------------------------

let t: TestApp;
const cookies: Record<Exclude<Role, 'anonymous'>, string> = { client: '', admin: '', forged: '' };
let spendingClientId = 0;
let spendingAdminId = 0;
const idOf = async (sql: string, value: string) => (await t.db.query<{ id: number }>(sql, [value]))[0]!.id;

beforeAll(async () => {
  // Fuzzed sign-ins fail by the thousand from one address; the throttle has its own tests.
  t = await createTestApp({ throttle: { windowMs: 60_000, perPair: 1e9, perAccount: 1e9, perAddress: 1e9, passwordPerDay: 1e9 } });
  cookies.client = await t.login(DEMO.client);
  cookies.admin = await t.login(DEMO.admin);
  const names = cookieNames('client', t.config.cookieSecure);
  cookies.forged = `${names.access}=eyJhbGciOiJub25lIn0.eyJzdWIiOjF9.; ${cookieNames('employee', t.config.cookieSecure).access}=%00`;
  // The sessions the spending operations end or rotate are of a client and an Admin of their own: an
  // account keeps its newest SESSIONS_PER_ACCOUNT, and the demo's, above, must outlive the run.
  spendingClientId = await idOf(
    `INSERT INTO clients (first_name, last_name, phone_number, account, password_hash)
     SELECT 'Spent', 'Sessions', '0555000000', 'spent-sessions@example.com', password_hash FROM clients WHERE account = $1 RETURNING id`,
    DEMO.client.account,
  );
  spendingAdminId = await idOf(
    `INSERT INTO employees (first_name, last_name, gender, birth_date, email, phone_number, address, password_hash, role)
     SELECT 'Spent', 'Sessions', 'Male', '1990-01-01', 'spent-sessions@bookshop.test', '0555000000', '1 Main Street', password_hash, 'Admin'
     FROM employees WHERE email = $1 RETURNING id`,
    DEMO.admin.account,
  );
});

/**
 * Operations that end or rotate the session they are sent with get a fresh one each time, of the
 * accounts made for them, so the others keep theirs.
 */
const SESSION_SPENDING = new Set(['refreshTokens', 'signOut']);

/**
 * Operations an account may ask only so often (a password change, ten a day, right or wrong; an
 * employee's own information, thirty saves an hour; a client's ratings, sixty an hour; their wishlist
 * changes, three hundred; ending one's sessions, twenty an hour): each case comes from a new account of
 * its own, as each comes from an address of its own (below), so every case reaches the handler.
 */
const PER_ACCOUNT_LIMITED = new Set([
  'changeClientPassword',
  'changeEmployeePassword',
  'updateOwnEmployeeInfo',
  'writeMyReview',
  'addToWishlist',
  'removeFromWishlist',
  'endOwnClientSessions',
  'endOwnEmployeeSessions',
]);
let accountsMade = 0;
/** A new client, or a new Admin, with the demo's password. */
async function newAccount(role: 'client' | 'admin') {
  const n = ++accountsMade;
  return role === 'client'
    ? idOf(
        `INSERT INTO clients (first_name, last_name, phone_number, account, password_hash)
         SELECT 'Fuzz', 'Case', '0555000000', 'fuzz-case-${n}@example.com', password_hash FROM clients WHERE account = $1 RETURNING id`,
        DEMO.client.account,
      )
    : idOf(
        `INSERT INTO employees (first_name, last_name, gender, birth_date, email, phone_number, address, password_hash, role)
         SELECT 'Fuzz', 'Case', 'Male', '1990-01-01', 'fuzz-case-${n}@bookshop.test', '0555000000', '1 Main Street', password_hash, 'Admin'
         FROM employees WHERE email = $1 RETURNING id`,
        DEMO.admin.account,
      );
}

async function cookieFor(op: Operation, role: Role): Promise<string | undefined> {
  if (role === 'anonymous') return undefined;
  const limited = PER_ACCOUNT_LIMITED.has(op.operationId);
  if (role === 'forged' || (!SESSION_SPENDING.has(op.operationId) && !limited)) return cookies[role];
  const audience = role === 'client' ? 'client' : 'employee';
  const subject = limited ? await newAccount(role) : role === 'client' ? spendingClientId : spendingAdminId;
  const session = await t.app.sessions.start(audience, subject);
  const names = cookieNames(audience, t.config.cookieSecure);
  return `${names.access}=${session.accessToken}; ${names.refresh}=${session.refreshToken}`;
}

/**
 * Each case comes from its own address, as cases from many visitors would: the per-address limits
 * (contact and sign-up allow 20 an hour, sign-in slows an address down) then keep answering the
 * handler instead of 429 after the first few cases, so every case reaches the code it was made for.
 */
let casesSent = 0;
const nextAddress = () => {
  const n = ++casesSent;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};
/** Answers of 429 Too Many Requests: a limit answering instead of the handler. */
const rateLimited: string[] = [];

// Operations are fuzzed side by side (vitest's maxConcurrency at a time), which also mixes their writes
// as real traffic would; each operation's own cases stay in seed order. FUZZ_SEQUENTIAL=1 runs one at a time.
const fuzzSuite = process.env.FUZZ_SEQUENTIAL ? describe : describe.concurrent;

fuzzSuite(`fuzz: every operation in openapi.yaml, ${RUNS} cases each (seed ${SEED})`, () => {
  it('reads the operations', () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  for (const op of operations) {
    it(
      `${op.operationId}: ${op.method} ${op.template}`,
      async () => {
        await fc.assert(
          fc.asyncProperty(requestArbitrary(op), async (request) => {
            const url = urlOf(op, request);
            const cookie = await cookieFor(op, request.role);
            const headers: Record<string, string> = { ...request.headers };
            if (cookie) headers.cookie = cookie;
            if (request.body?.contentType) headers['content-type'] = request.body.contentType;
            const res = await t.app.inject({
              method: op.method as 'GET',
              url,
              headers,
              payload: request.body?.payload,
              remoteAddress: nextAddress(),
            });
            if (res.statusCode === 429) rateLimited.push(`${op.operationId}: ${res.body.slice(0, 200)}`);
            checkAnswer(
              res,
              () =>
                `${op.method} ${url.slice(0, 300)} as ${request.role} ${JSON.stringify(request.headers)}\nbody: ${request.body?.contentType} ${request.body?.payload?.slice(0, 300)}`,
              op.csvAnswer,
            );
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: !process.env.FUZZ_SHRINK },
        );
      },
      Math.max(60_000, RUNS * 300),
    );
  }
});

describe('after the fuzzing', () => {
  it('reached every handler: no case was answered by a rate limit', () => {
    expect(rateLimited).toEqual([]);
  });

  it("reached the signed-in handlers to the end: the client's and the Admin's sessions still open", async () => {
    for (const [url, cookie] of [
      ['/api/client/cart', cookies.client],
      ['/api/employee/employee/', cookies.admin],
    ] as const) {
      expect((await t.app.inject({ method: 'GET', url, headers: { cookie } })).statusCode, url).toBe(200);
    }
  });

  it('leaves the server healthy', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ data: { status: 'ok', database: 'ok' } });
  });
});
