// Configuration is read and validated once, at boot: env-schema checks each variable against a
// TypeBox schema, then the cross-checks of production safety run. Anything missing or unsafe stops
// the process with a message naming the variable.
import envSchema from 'env-schema';
import { type Static, Type } from 'typebox';

/** nodemailer's transport settings: a URL, or the parts. */
export type SmtpSettings = { url: string } | { host: string; port: number; secure: boolean; auth?: { user: string; pass: string } };

/** How long the catalog cache keeps an answer outside the tests, unless CATALOG_CACHE_MS says otherwise. */
export const DEFAULT_CATALOG_CACHE_MS = 5_000;
export const DEVELOPMENT_JWT_SECRET = 'development-only-secret-change-me-0123456789';

export class ConfigError extends Error {}

/**
 * The configuration the API runs with: what loadConfig builds from the variables (each field's
 * meaning is written where loadConfig sets it), so the type and the schema can't drift apart.
 */
export type Config = ReturnType<typeof loadConfig>;
type Mode = 'development' | 'test' | 'production';

/** TRUST_PROXY: unset or false, a hop count (1 behind one proxy), or comma-separated IPs/CIDRs of the proxies. */
function trustProxy(raw: string | undefined, problems: string[]): false | number | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 10) return Number(value);
  const list = value.split(',').map((a) => a.trim());
  const address = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)(\/\d{1,3})?$/i;
  if (value !== 'true' && list.every((a) => address.test(a))) return list;
  problems.push(
    'TRUST_PROXY must be the number of proxies in front of the API (e.g. 1) or their addresses (IPs or CIDRs, comma-separated); ' +
      '"true" would believe an X-Forwarded-For that any client can write',
  );
  return false;
}

/**
 * Every variable the API reads, with its type, range and default where the default does not depend on
 * NODE_ENV. env-schema validates and coerces them at once (all problems reported together); the
 * cross-checks that involve several variables or the mode follow in loadConfig.
 */
const POSTGRES_URL = '^postgres(ql)?://';
const milliseconds = (fallback: number, min: number) => Type.Integer({ minimum: min, maximum: 600_000, default: fallback });
/** The emulator's key, which a real Firebase project refuses. */
const DEMO_FIREBASE_WEB_API_KEY = 'demo-api-key';
export const EnvSchema = Type.Object({
  // Anything else ('prod', 'production ') would silently start in development mode.
  NODE_ENV: Type.Optional(Type.Enum(['production', 'test', 'development'])),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  DATABASE_URL: Type.String({ pattern: POSTGRES_URL }),
  DATABASE_REPLICA_URL: Type.Optional(Type.String({ pattern: POSTGRES_URL })),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  DATABASE_CONNECT_TIMEOUT_MS: milliseconds(3000, 100),
  DATABASE_LOCK_TIMEOUT_MS: milliseconds(2000, 100),
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(5000, 100),
  REQUEST_TIMEOUT_MS: milliseconds(10_000, 1000),
  CATALOG_CACHE_MS: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
  SALES_REFRESH_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 300 }),
  JWT_SECRET: Type.Optional(Type.String()),
  METRICS_TOKEN: Type.Optional(Type.String()),
  COOKIE_SECURE: Type.Optional(Type.Enum(['true', 'false'])),
  TRUST_PROXY: Type.Optional(Type.String()),
  TRUSTED_ORIGINS: Type.Optional(Type.String()),
  CORS_ORIGINS: Type.Optional(Type.String()),
  BCRYPT_COST: Type.Optional(Type.Integer({ minimum: 10, maximum: 15 })),
  FIREBASE_PROJECT_ID: Type.String({ default: 'demo-bookshop' }),
  FIREBASE_WEB_API_KEY: Type.String({ default: DEMO_FIREBASE_WEB_API_KEY }),
  FIREBASE_AUTH_DOMAIN: Type.Optional(Type.String()),
  FIREBASE_AUTH_EMULATOR_PUBLIC_URL: Type.Optional(Type.String()),
  FIREBASE_AUTH_EMULATOR_HOST: Type.Optional(Type.String()),
  ISBN_LOOKUP: Type.Optional(Type.Enum(['bundled', 'openlibrary'])),
  OPEN_LIBRARY_URL: Type.String({ default: 'https://openlibrary.org' }),
  WEB_DIST: Type.String({ default: '' }),
  PUBLIC_URL: Type.Optional(Type.String()),
  LOG_LEVEL: Type.Optional(Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),
  ALLOW_IDENTITY_EMULATOR: Type.Optional(Type.Enum(['true', 'false'])),
  SEED_DEMO: Type.Optional(Type.Enum(['true', 'false'])),
  ADMIN_EMAIL: Type.Optional(Type.String()),
  ADMIN_PASSWORD: Type.Optional(Type.String()),
  STAFF_MFA: Type.Optional(Type.Enum(['required', 'optional'])),
  RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 90 }),
  AUDIT_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 730 }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  SMTP_HOST: Type.Optional(Type.String()),
  SMTP_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  SMTP_USER: Type.Optional(Type.String()),
  SMTP_PASSWORD: Type.Optional(Type.String()),
  SMTP_SECURE: Type.Optional(Type.Enum(['true', 'false'])),
  MAIL_FROM: Type.Optional(Type.String({ maxLength: 200 })),
  MAIL_DISABLED: Type.Optional(Type.Enum(['true', 'false'])),
  MAIL_POLL_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 2000 }),
  MAIL_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 50, default: 8 }),
  MAIL_RETRY_BASE_MS: Type.Integer({ minimum: 1, maximum: 3_600_000, default: 30_000 }),
});
type Env = Static<typeof EnvSchema>;

/** The variables as env-schema checks them: an empty value counts as unset (compose writes `X=` for an unset X). */
function readEnv(raw: NodeJS.ProcessEnv): Env {
  const data = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
  try {
    return envSchema<Env>({ schema: structuredClone(EnvSchema), data, env: false, dotenv: false });
  } catch (error) {
    type AjvError = { instancePath: string; message?: string; params: { missingProperty?: string; allowedValues?: unknown[] } };
    const problems = ((error as { errors?: AjvError[] }).errors ?? []).map((e) =>
      e.params.missingProperty
        ? `${e.params.missingProperty} must be set`
        : `${e.instancePath.slice(1)} ${e.message}${e.params.allowedValues ? `: ${e.params.allowedValues.join(', ')}` : ''}`,
    );
    throw new ConfigError(`Invalid configuration:\n- ${(problems.length ? problems : [(error as Error).message]).join('\n- ')}`);
  }
}

/** The e-mail settings, or null for none; production must choose (an SMTP setting, or MAIL_DISABLED=true). */
function mailSettings(env: Env, mode: Mode, problems: string[]) {
  if (env.MAIL_DISABLED === 'true') return null;
  // A setting that would be ignored is refused: the shop would send with other settings than meant.
  if (env.SMTP_URL && env.SMTP_HOST)
    problems.push('SMTP_URL and SMTP_HOST are both set: set one (SMTP_URL carries the host, port and login)');
  const partsSet = (['SMTP_PORT', 'SMTP_USER', 'SMTP_PASSWORD', 'SMTP_SECURE'] as const).filter((name) => env[name] !== undefined);
  if (partsSet.length && !env.SMTP_HOST) {
    problems.push(
      `${partsSet.join(', ')} ${partsSet.length === 1 ? 'goes' : 'go'} with SMTP_HOST (SMTP_URL carries its own), which is not set`,
    );
  } else if (env.SMTP_PASSWORD !== undefined && env.SMTP_USER === undefined) {
    problems.push('SMTP_PASSWORD goes with SMTP_USER, which is not set');
  }
  let smtp: SmtpSettings | null = null;
  if (env.SMTP_URL) smtp = { url: env.SMTP_URL };
  else if (env.SMTP_HOST) {
    const secure = env.SMTP_SECURE === 'true';
    smtp = {
      host: env.SMTP_HOST,
      port: env.SMTP_PORT ?? (secure ? 465 : 587),
      secure,
      ...(env.SMTP_USER ? { auth: { user: env.SMTP_USER, pass: env.SMTP_PASSWORD ?? '' } } : {}),
    };
  }
  if (!smtp) {
    if (mode === 'production') {
      problems.push(
        'SMTP_URL (or SMTP_HOST) must be set in production so the shop can write to its customers, or MAIL_DISABLED=true to send no e-mail',
      );
    }
    return null;
  }
  if (mode === 'production' && !env.MAIL_FROM)
    problems.push('MAIL_FROM must be set in production, such as "Bookshop <orders@shop.example.com>"');
  return {
    smtp,
    from: env.MAIL_FROM ?? 'Bookshop <shop@bookshop.test>',
    pollMs: env.MAIL_POLL_MS,
    maxAttempts: env.MAIL_MAX_ATTEMPTS,
    retryBaseMs: env.MAIL_RETRY_BASE_MS,
  };
}

export function loadConfig(raw: NodeJS.ProcessEnv = process.env) {
  const env = readEnv(raw);
  const mode: Mode = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const problems: string[] = [];

  const origins = (name: 'TRUSTED_ORIGINS' | 'CORS_ORIGINS') => {
    const list = (env[name] ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    for (const origin of list) {
      // An origin is exactly scheme://host[:port]; anything else would never match a browser's Origin.
      if (!/^https?:\/\/[^/\s?#]+$/.test(origin)) problems.push(`${name}: '${origin}' is not an origin such as https://shop.example.com`);
    }
    return list;
  };

  if (env.PUBLIC_URL !== undefined && !/^https?:\/\/[^/\s?#,]+$/.test(env.PUBLIC_URL)) {
    problems.push(`PUBLIC_URL: '${env.PUBLIC_URL}' is not an origin such as https://shop.example.com`);
  }
  // Links in e-mails and pages must never come from a request's Host header, which anyone can write.
  if (mode === 'production' && env.PUBLIC_URL === undefined) {
    problems.push('PUBLIC_URL must be set in production to the address shoppers use, such as https://shop.example.com');
  }
  // Over plain http, passwords and session cookies cross the network readable: in production only a shop
  // on this machine (the compose demo's http://localhost:3000) may be reached so.
  const servedHere = /^https?:\/\/(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d+)?$/.test(env.PUBLIC_URL ?? '');
  const plainHttpHere = servedHere && env.PUBLIC_URL?.startsWith('http://') === true;
  if (mode === 'production' && env.PUBLIC_URL?.startsWith('http://') && !plainHttpHere) {
    problems.push(
      `PUBLIC_URL must be https in production ('${env.PUBLIC_URL}'): plain http only for a shop on this machine (http://localhost)`,
    );
  }
  if (mode === 'production' && env.COOKIE_SECURE === 'false' && !plainHttpHere) {
    problems.push('COOKIE_SECURE=false is for a shop on this machine only (PUBLIC_URL http://localhost): remove it behind https');
  }

  // The local demo's settings let anyone in where others can reach the shop: its accounts' passwords
  // are published (and its Admins need no second factor), and the emulator signs no token, so anyone
  // could claim any e-mail. Compose sets both: it starts only at a local address.
  if (mode === 'production' && env.SEED_DEMO === 'true' && !servedHere) {
    problems.push('SEED_DEMO=true is for a demo on this machine only (PUBLIC_URL http://localhost): its accounts have published passwords');
  }
  if (mode === 'production' && env.ALLOW_IDENTITY_EMULATOR === 'true' && !servedHere) {
    problems.push(
      'ALLOW_IDENTITY_EMULATOR=true is for a demo on this machine only (PUBLIC_URL http://localhost): the emulator signs nothing, so anyone could claim any e-mail',
    );
  }

  if (env.METRICS_TOKEN !== undefined && env.METRICS_TOKEN.length < 32) {
    problems.push('METRICS_TOKEN must be at least 32 characters (e.g. openssl rand -hex 32), or unset');
  }

  const jwtSecret = env.JWT_SECRET ?? (mode === 'production' ? '' : DEVELOPMENT_JWT_SECRET);
  if (mode === 'production' && (jwtSecret === DEVELOPMENT_JWT_SECRET || jwtSecret.length < 32)) {
    problems.push('JWT_SECRET must be set to a secret of at least 32 characters in production (the development default is refused)');
  }

  const config = {
    env: mode,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    /** A read replica for the public catalog's reads (DATABASE_REPLICA_URL), or null to read the primary. */
    databaseReplicaUrl: env.DATABASE_REPLICA_URL ?? null,
    /**
     * The database pool's size and time limits (plugins/prisma.ts): waiting longer for a connection, a
     * row lock or one statement fails the call with 503 instead of letting it hang.
     */
    database: {
      poolSize: env.DATABASE_POOL_SIZE,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      lockTimeoutMs: env.DATABASE_LOCK_TIMEOUT_MS,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    },
    /** The time budget of one request in milliseconds; past it the request answers 503. */
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    /**
     * How long the public catalog's answers may be kept in this process (plugins/catalog-cache.ts); a
     * catalog change forgets what it reaches at once, or with a read replica once the replica has it.
     * 0 turns the cache off, as the tests have it unless they test it.
     */
    catalogCacheMs: env.CATALOG_CACHE_MS ?? (mode === 'test' ? 0 : DEFAULT_CATALOG_CACHE_MS),
    /** The least time between two refreshes of browse_listing that sales alone cause (Bestselling, in-stock counts). */
    salesRefreshSeconds: env.SALES_REFRESH_SECONDS,
    jwtSecret,
    /**
     * Who may read /api/metrics: with METRICS_TOKEN, whoever sends it as a bearer token (Prometheus'
     * `authorization`); without it, anyone outside production, and nobody in production, where the
     * instance may be reached from outside (an image run with its port published, no proxy in front).
     */
    metrics: env.METRICS_TOKEN
      ? ({ access: 'token', token: env.METRICS_TOKEN } as const)
      : ({ access: mode === 'production' ? 'off' : 'open' } as const),
    /** Cookies carry `Secure` (set automatically when the request came over https). */
    // Secure cookies by default in production; plain-http local stacks opt out with COOKIE_SECURE=false.
    // Cross-site frontends need SameSite=None, which browsers accept only with Secure.
    cookieSecure: env.COOKIE_SECURE ? env.COOKIE_SECURE === 'true' : mode === 'production' || !!env.CORS_ORIGINS?.trim(),
    /**
     * Which X-Forwarded-* hops to believe: false (none), the number of proxies in front of the API, or
     * their addresses (IPs or CIDRs). Never "all": a client can write X-Forwarded-For itself.
     */
    trustProxy: trustProxy(env.TRUST_PROXY, problems),
    /** Origins (scheme://host[:port]) allowed to send state-changing calls besides the API's own. */
    trustedOrigins: origins('TRUSTED_ORIGINS'),
    /**
     * Frontends on other sites (scheme://host[:port]) that may call the API with credentials: CORS
     * answers them, the Origin check accepts them, and session cookies become SameSite=None; Secure.
     * Empty: same origin only, SameSite=Strict.
     */
    corsOrigins: origins('CORS_ORIGINS'),
    bcryptCost: env.BCRYPT_COST ?? (mode === 'test' ? 10 : 12),
    firebaseProjectId: env.FIREBASE_PROJECT_ID,
    /** What the browser's identity SDK needs: the Web API key, auth domain and, in development, the emulator. */
    firebaseWebApiKey: env.FIREBASE_WEB_API_KEY,
    firebaseAuthDomain: env.FIREBASE_AUTH_DOMAIN ?? `${env.FIREBASE_PROJECT_ID}.firebaseapp.com`,
    firebaseAuthEmulatorUrl:
      env.FIREBASE_AUTH_EMULATOR_PUBLIC_URL ?? (env.FIREBASE_AUTH_EMULATOR_HOST ? `http://${env.FIREBASE_AUTH_EMULATOR_HOST}` : null),
    /** host:port of the Auth emulator the API itself calls, or null for the real provider. */
    firebaseAuthEmulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST ?? null,
    /** 'bundled' reads the seed catalog; 'openlibrary' asks Open Library's public API. */
    isbnLookup: env.ISBN_LOOKUP ?? (mode === 'production' ? ('openlibrary' as const) : ('bundled' as const)),
    openLibraryUrl: env.OPEN_LIBRARY_URL,
    /** Folder of the built web app to serve at '/', or '' to serve none. */
    webDist: env.WEB_DIST,
    /**
     * The shop's address as shoppers reach it (scheme://host[:port]): book pages' canonical links,
     * Open Graph URLs, the sitemap and robots.txt are written with it. Null: the address each request
     * came to, as the trusted proxies report it (development; set it in production).
     */
    publicUrl: env.PUBLIC_URL ?? null,
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    /** Production only uses the identity emulator when this is set (firebase-admin trusts its tokens unsigned). */
    allowIdentityEmulator: env.ALLOW_IDENTITY_EMULATOR === 'true',
    /** Seed the demo people (published passwords) into an empty database; the catalog is always seeded. */
    seedDemo: env.SEED_DEMO === 'true',
    /** The first Admin of a deployment, created at first start when no employee exists. */
    initialAdmin: env.ADMIN_EMAIL || env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL ?? '', password: env.ADMIN_PASSWORD ?? '' } : null,
    /**
     * STAFF_MFA: 'required' makes every Admin set up a second factor before anything else answers;
     * 'optional' leaves it to each employee. Either way, an employee who has one is asked for it.
     */
    // Required in production; optional for the local demo (SEED_DEMO: its published accounts have no
    // second factor) and for development and the tests, so the spec's own client signs in with a password.
    staffMfa: env.STAFF_MFA ?? (mode === 'production' && env.SEED_DEMO !== 'true' ? ('required' as const) : ('optional' as const)),
    /** RETENTION_DAYS: how long security events and finished imports are kept, and after which a deleted person's data leaves the audit log. */
    retentionDays: env.RETENTION_DAYS,
    /** AUDIT_RETENTION_DAYS: how long the audit log keeps its back-office writes (two years by default). */
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    /**
     * Where e-mail goes: an SMTP URL (SMTP_URL, or SMTP_HOST/PORT/USER/PASSWORD/SECURE), the sender
     * (MAIL_FROM), or null when the shop sends none (MAIL_DISABLED=true, or no SMTP setting outside
     * production): the outbox then keeps every message until a sender is configured.
     */
    mail: mailSettings(env, mode, problems),
  };
  if (config.initialAdmin && !(config.initialAdmin.email && config.initialAdmin.password)) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD go together: set both to create the first Admin, or neither');
  }
  if (mode === 'production' && env.FIREBASE_AUTH_EMULATOR_HOST && !config.allowIdentityEmulator) {
    problems.push(
      'FIREBASE_AUTH_EMULATOR_HOST is set in production: the emulator signs nothing, so anyone could claim a verified e-mail. ' +
        'Use a real Firebase project, or set ALLOW_IDENTITY_EMULATOR=true for a local demo',
    );
  }
  if (mode === 'production' && config.firebaseProjectId.startsWith('demo-') && !env.FIREBASE_AUTH_EMULATOR_HOST) {
    problems.push('FIREBASE_PROJECT_ID must name a real Firebase project in production (demo- projects only work with the emulator)');
  }
  if (mode === 'production' && config.firebaseWebApiKey === DEMO_FIREBASE_WEB_API_KEY && !env.FIREBASE_AUTH_EMULATOR_HOST) {
    // The server calls the provider with it too (sign-up, password resets): with the demo key, a shop
    // that started would refuse every sign-up.
    problems.push(
      "FIREBASE_WEB_API_KEY must be set in production: the Firebase project's Web API key (the demo key works only with the emulator)",
    );
  }
  if (config.database.connectTimeoutMs >= config.requestTimeoutMs) {
    // A call whose wait for a connection alone outlasts its time budget is answered 503 TIMEOUT and
    // then still runs (a transaction commits), and a client told it failed may send it again.
    problems.push(
      'DATABASE_CONNECT_TIMEOUT_MS must be shorter than REQUEST_TIMEOUT_MS: a call answered 503 for its time should not then get a connection and run',
    );
  }
  if (mode === 'production' && (env.TRUST_PROXY ?? '').trim() === '') {
    // Left unset behind a proxy, every shopper has the proxy's address: one address's limits (sign-in
    // lockouts, sign-ups, the contact form) would then hold the whole shop.
    problems.push(
      'TRUST_PROXY must be set in production: the number of proxies in front of the API (e.g. 1) or their addresses, ' +
        'or false when clients reach it directly (unset behind a proxy, every client would share its address and its limits)',
    );
  }
  if (config.corsOrigins.length && env.COOKIE_SECURE === 'false') {
    problems.push('CORS_ORIGINS needs Secure cookies (browsers send SameSite=None cookies only when Secure): remove COOKIE_SECURE=false');
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return config;
}
