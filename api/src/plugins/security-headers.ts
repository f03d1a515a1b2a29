// Security headers on every answer (@fastify/helmet): a Content-Security-Policy fitted to the app
// (its own scripts and styles, https and drawn data: images, the identity provider, and the local
// emulator only when one is configured), no framing, nosniff, a referrer policy, and HSTS in
// production.
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

export default fp(
  async (app) => {
    const { env, firebaseAuthDomain, firebaseAuthEmulatorUrl } = app.config;
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
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
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // The API's JSON is read by CORS_ORIGINS frontends through CORS; nothing here is embedded elsewhere.
      crossOriginEmbedderPolicy: false,
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);
