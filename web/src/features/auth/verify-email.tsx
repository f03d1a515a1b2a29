// The sign-up's verification e-mail leads here (the provider's action URL, mode=verifyEmail): the
// link's code is spent at the provider, and the shopper goes back to the sign-up to finish it there.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/document-title';
import { paths } from '../../lib/paths';

export const VERIFY_EMAIL_TEXT = {
  verifying: 'Verifying your e-mail...',
  verified:
    'Your e-mail address is verified. Go back to the sign-up page and choose "I Verified My Email", or sign up again here with the same e-mail and password.',
  refused: 'This verification link is invalid, used or expired. Sign up again with the same e-mail and password to get a new one.',
};

export function VerifyEmail({ oobCode }: { oobCode: string | null }) {
  useDocumentTitle('Verify your e-mail');
  // Asked once: a code works once, so a second ask (a refocused tab) would turn a success into a refusal.
  const verification = useQuery({
    queryKey: ['verify-email', oobCode],
    queryFn: async () => {
      const { applyEmailVerification } = await import('./identity');
      await applyEmailVerification(oobCode ?? '');
      return true;
    },
    enabled: !!oobCode,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  let text = VERIFY_EMAIL_TEXT.verifying;
  if (!oobCode || verification.isError) text = VERIFY_EMAIL_TEXT.refused;
  else if (verification.isSuccess) text = VERIFY_EMAIL_TEXT.verified;
  return (
    <div className="narrow">
      <h1>Verify your e-mail</h1>
      <p role="status" className={verification.isSuccess ? 'notice notice-success' : undefined}>
        {text}
      </p>
      <p>
        <Link to={paths.signup}>Sign up</Link>
      </p>
    </div>
  );
}
