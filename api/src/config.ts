// Configuration is read and validated once, at boot. Anything missing or unsafe stops the process
// with a message naming the variable.

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  databaseUrl: string;
  jwtSecret: string;
  /** Cookies carry `Secure` (set automatically when the request came over https). */
  cookieSecure: boolean;
  /** Behind a reverse proxy: take the client address and protocol from X-Forwarded-*. */
  trustProxy: boolean;
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
}

export const DEVELOPMENT_JWT_SECRET = 'development-only-secret-change-me-0123456789';

export class ConfigError extends Error {}

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
    jwtSecret,
    // Secure cookies by default in production; plain-http local stacks opt out with COOKIE_SECURE=false.
    // Cross-site frontends need SameSite=None, which browsers accept only with Secure.
    cookieSecure: env.COOKIE_SECURE ? env.COOKIE_SECURE === 'true' : mode === 'production' || !!env.CORS_ORIGINS?.trim(),
    trustProxy: env.TRUST_PROXY === 'true',
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
  };
  if (mode === 'production' && config.firebaseProjectId.startsWith('demo-') && !env.FIREBASE_AUTH_EMULATOR_HOST) {
    problems.push('FIREBASE_PROJECT_ID must name a real Firebase project in production (demo- projects only work with the emulator)');
  }
  if (config.corsOrigins.length && env.COOKIE_SECURE === 'false') {
    problems.push('CORS_ORIGINS needs Secure cookies (browsers send SameSite=None cookies only when Secure): remove COOKIE_SECURE=false');
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return config;
}
