// Security headers on every answer. Pages (the web app, Swagger UI) get helmet's full set with a
// Content-Security-Policy fitted to the app (its own scripts and styles, https and drawn data:
// images, the identity provider, and the local emulator only when one is configured). JSON answers
// are never documents, so they get the set that matters to an API (OWASP REST Security Cheat Sheet):
// a policy that allows nothing, no framing, nosniff, a referrer policy, and HSTS in production,
// written as one precomputed object: helmet's dozen document headers on every small catalog answer
// cost a tenth of its time. helmet itself is built once (@fastify/helmet builds the policy per request).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import helmet from 'helmet';

const BUILT_PAGES = ['index.html', 'shell.html'];

/**
 * The hashes of the <style> blocks the built pages carry inline (web/scripts/prerender-home.ts
 * inlines the stylesheet so the first paint does not wait for it): style-src allows exactly those,
 * never inline styles in general.
 */
export function inlineStyleHashes(webDist: string): string[] {
  const hashes = new Set<string>();
  for (const page of BUILT_PAGES) {
    const file = path.join(webDist, page);
    if (webDist === '' || !existsSync(file)) continue;
    for (const [, css = ''] of readFileSync(file, 'utf8').matchAll(/<style>([\s\S]*?)<\/style>/g)) {
      hashes.add(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    }
  }
  return [...hashes];
}

/** When the built pages last changed: a rebuild under a running server changes their hashes. */
const builtPagesVersion = (webDist: string) =>
  webDist === '' ? '' : BUILT_PAGES.map((page) => statSync(path.join(webDist, page), { throwIfNoEntry: false })?.mtimeMs ?? 0).join();

/** The headers of every JSON answer (the bench's bare baseline sends them too). */
export const apiSecurityHeaders = (production: boolean): Record<string, string> => ({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin',
  'cross-origin-resource-policy': 'same-origin',
  ...(production ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
});

export default fp(
  async (app) => {
    const { env, firebaseAuthDomain, firebaseAuthEmulatorUrl, webDist } = app.config;
    const pageHeaders = (styleHashes: string[]) =>
      helmet({
        contentSecurityPolicy: {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'"],
            styleSrc: ["'self'", ...styleHashes],
            imgSrc: ["'self'", 'https:', 'data:'],
            fontSrc: ["'self'"],
            connectSrc: [
              "'self'",
              'https://identitytoolkit.googleapis.com',
              'https://securetoken.googleapis.com',
              ...(firebaseAuthEmulatorUrl ? [firebaseAuthEmulatorUrl] : []),
            ],
            frameSrc: [`https://${firebaseAuthDomain}`],
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
          },
        },
        hsts: env === 'production' ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
        // The origin alone, even to the shop itself: a password reset's page (its code in the query) or an
        // unsubscribe page (its token) would otherwise send its whole address with every call it makes,
        // into any log that writes the Referer (the proxy's error log does).
        referrerPolicy: { policy: 'strict-origin' },
        frameguard: { action: 'deny' },
        // The API's JSON is read by CORS_ORIGINS frontends through CORS; nothing here is embedded elsewhere.
        crossOriginEmbedderPolicy: false,
      });
    // Built once per version of the pages (helmet builds its policy when created, not per request).
    let built = { version: '', setHeaders: pageHeaders([]) };
    // Looked at on a page's request only: the hashed assets are not documents, and are most requests.
    const setSecurityHeaders = (isPage: boolean, ...args: Parameters<ReturnType<typeof helmet>>) => {
      const version = isPage ? builtPagesVersion(webDist) : built.version;
      if (version !== built.version) {
        const hashes = inlineStyleHashes(webDist);
        if (hashes.length === 0 && existsSync(path.join(webDist, 'index.html'))) {
          app.log.warn('the built pages hold no inline <style>: they will be unstyled under style-src');
        }
        built = { version, setHeaders: pageHeaders(hashes) };
      }
      built.setHeaders(...args);
    };
    const apiHeaders = apiSecurityHeaders(env === 'production');
    const isApiAnswer = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');
    app.addHook('onRequest', (request, reply, done) => {
      if (isApiAnswer(request.url)) {
        reply.headers(apiHeaders);
        done();
        return;
      }
      setSecurityHeaders(!request.url.startsWith('/assets/'), request.raw, reply.raw, (error?: unknown) =>
        done(error as Error | undefined),
      );
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);
