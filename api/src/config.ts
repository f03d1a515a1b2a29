// Configuration is read and validated once, at boot. Anything missing or unsafe stops the process
// with a message naming the variable.

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  databaseUrl: string;
  /** A read replica for the public catalog's reads (DATABASE_REPLICA_URL), or null to read the primary. */
  databaseReplicaUrl: string | null;
  /**
   * The database pool's size and time limits (plugins/prisma.ts): waiting longer for a connection, a
   * row lock or one statement fails the call with 503 instead of letting it hang.
   */
  database: { poolSize: number; connectTimeoutMs: number; lockTimeoutMs: number; statementTimeoutMs: number };
  /** The time budget of one request in milliseconds; past it the request answers 503. */
  requestTimeoutMs: number;
  jwtSecret: string;
  /** Cookies carry `Secure` (set automatically when the request came over https). */
  cookieSecure: boolean;
  /**
   * Which X-Forwarded-* hops to believe: false (none), the number of proxies in front of the API, or
   * their addresses (IPs or CIDRs). Never "all": a client can write X-Forwarded-For itself.
   */
  trustProxy: false | number | string[];
  /** Origins (scheme://host[:port]) allowed to send state-changing calls besides the API's own. */
  trustedOrigins: string[];
  /**
   * Frontends on other sites (scheme://host[:port]) that may call the API with credentials: CORS
   * answers them, the Origin check accepts them, and session cookies become SameSite=None; Secure.
   * Empty: same origin only, SameSite=Strict.
   */
  corsOrigins: string[];
  bcryptCost: number;
  firebaseProjectId: string;
  /** What the browser's identity SDK needs: the Web API key, auth domain and, in development, the emulator. */
  firebaseWebApiKey: string;
  firebaseAuthDomain: string;
  firebaseAuthEmulatorUrl: string | null;
  /** host:port of the Auth emulator the API itself calls, or null for the real provider. */
  firebaseAuthEmulatorHost: string | null;
  /** 'bundled' reads the seed catalog; 'openlibrary' asks Open Library's public API. */
  isbnLookup: 'bundled' | 'openlibrary';
  openLibraryUrl: string;
  /** Folder of the built web app to serve at '/', or '' to serve none. */
  webDist: string;
  logLevel: string;
  /** Production only uses the identity emulator when this is set (firebase-admin trusts its tokens unsigned). */
  allowIdentityEmulator: boolean;
  /** Seed the demo people (published passwords) into an empty database; the catalog is always seeded. */
  seedDemo: boolean;
  /** The first Admin of a deployment, created at first start when no employee exists. */
  initialAdmin: { email: string; password: string } | null;
}

export const DEVELOPMENT_JWT_SECRET = 'development-only-secret-change-me-0123456789';

export class ConfigError extends Error {}

/** TRUST_PROXY: unset or false, a hop count (1 behind one proxy), or comma-separated IPs/CIDRs of the proxies. */
function trustProxy(raw: string | undefined, problems: string[]): Config['trustProxy'] {
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const mode = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) problems.push(`${name} must be an integer from ${min} to ${max}`);
    return value;
  };

  const origins = (name: string) => {
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

  const databaseUrl = env.DATABASE_URL ?? '';
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must be a postgresql:// URL');
  const databaseReplicaUrl = env.DATABASE_REPLICA_URL || null;
  if (databaseReplicaUrl && !/^postgres(ql)?:\/\//.test(databaseReplicaUrl))
    problems.push('DATABASE_REPLICA_URL must be a postgresql:// URL');

  const jwtSecret = env.JWT_SECRET ?? (mode === 'production' ? '' : DEVELOPMENT_JWT_SECRET);
  if (mode === 'production' && (jwtSecret === DEVELOPMENT_JWT_SECRET || jwtSecret.length < 32)) {
    problems.push('JWT_SECRET must be set to a secret of at least 32 characters in production (the development default is refused)');
  }

  const isbnLookup = env.ISBN_LOOKUP ?? (mode === 'production' ? 'openlibrary' : 'bundled');
  if (isbnLookup !== 'bundled' && isbnLookup !== 'openlibrary') problems.push("ISBN_LOOKUP must be 'bundled' or 'openlibrary'");

  const config: Config = {
    env: mode,
    port: int('PORT', 3000, 0, 65535),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl,
    databaseReplicaUrl,
    database: {
      poolSize: int('DATABASE_POOL_SIZE', 10, 1, 1000),
      connectTimeoutMs: int('DATABASE_CONNECT_TIMEOUT_MS', 3000, 100, 600_000),
      lockTimeoutMs: int('DATABASE_LOCK_TIMEOUT_MS', 2000, 100, 600_000),
      statementTimeoutMs: int('DATABASE_STATEMENT_TIMEOUT_MS', 5000, 100, 600_000),
    },
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS', 10_000, 1000, 600_000),
    jwtSecret,
    // Secure cookies by default in production; plain-http local stacks opt out with COOKIE_SECURE=false.
    // Cross-site frontends need SameSite=None, which browsers accept only with Secure.
    cookieSecure: env.COOKIE_SECURE ? env.COOKIE_SECURE === 'true' : mode === 'production' || !!env.CORS_ORIGINS?.trim(),
    trustProxy: trustProxy(env.TRUST_PROXY, problems),
    trustedOrigins: origins('TRUSTED_ORIGINS'),
    corsOrigins: origins('CORS_ORIGINS'),
    bcryptCost: int('BCRYPT_COST', mode === 'test' ? 10 : 12, 10, 15),
    firebaseProjectId: env.FIREBASE_PROJECT_ID ?? 'demo-bookshop',
    firebaseWebApiKey: env.FIREBASE_WEB_API_KEY ?? 'demo-api-key',
    firebaseAuthDomain: env.FIREBASE_AUTH_DOMAIN ?? `${env.FIREBASE_PROJECT_ID ?? 'demo-bookshop'}.firebaseapp.com`,
    firebaseAuthEmulatorUrl:
      env.FIREBASE_AUTH_EMULATOR_PUBLIC_URL ?? (env.FIREBASE_AUTH_EMULATOR_HOST ? `http://${env.FIREBASE_AUTH_EMULATOR_HOST}` : null),
    firebaseAuthEmulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST || null,
    isbnLookup: isbnLookup as Config['isbnLookup'],
    openLibraryUrl: env.OPEN_LIBRARY_URL ?? 'https://openlibrary.org',
    webDist: env.WEB_DIST ?? '',
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    allowIdentityEmulator: env.ALLOW_IDENTITY_EMULATOR === 'true',
    seedDemo: env.SEED_DEMO === 'true',
    initialAdmin: env.ADMIN_EMAIL || env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL ?? '', password: env.ADMIN_PASSWORD ?? '' } : null,
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
  if (config.corsOrigins.length && env.COOKIE_SECURE === 'false') {
    problems.push('CORS_ORIGINS needs Secure cookies (browsers send SameSite=None cookies only when Secure): remove COOKIE_SECURE=false');
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return config;
}
