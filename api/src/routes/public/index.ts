import type { FastifyPluginAsync } from 'fastify';
import authenticationRoutes from './authentication.ts';
import authorRoutes from './authors.ts';
import bookCopyRoutes from './book-copy.ts';
import browseRoutes from './browse.ts';
import contactRoutes from './contact.ts';
import passwordResetRoutes from './password-reset.ts';
import publicReviewRoutes from './reviews.ts';
import secondFactorSignInRoutes from './second-factor.ts';
import signUpRoutes from './sign-up.ts';
import unsubscribeRoutes from './unsubscribe.ts';

/** Anonymous routes: the catalog, the contact form, sign-up and sign-in. */
const publicRoutes: FastifyPluginAsync = async (app) => {
  await app.register(bookCopyRoutes, { prefix: '/book-copy' });
  await app.register(browseRoutes, { prefix: '/book-copy' });
  await app.register(authorRoutes, { prefix: '/authors' });
  await app.register(publicReviewRoutes, { prefix: '/book-copy' });
  await app.register(contactRoutes, { prefix: '/contact' });
  await app.register(signUpRoutes, { prefix: '/sign-up' });
  await app.register(authenticationRoutes, { prefix: '/authentication' });
  await app.register(secondFactorSignInRoutes, { prefix: '/authentication' });
  await app.register(passwordResetRoutes, { prefix: '/password-reset' });
  await app.register(unsubscribeRoutes, { prefix: '/unsubscribe' });
};

export default publicRoutes;
