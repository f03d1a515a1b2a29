// Confirm it is you (beyond the spec): the second factor again, which opens the sensitive actions
// for 10 minutes. With a passkey, the server's challenge goes through the browser's dialog first.
import { api, withSession, withSessionRenewal } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

export const stepUpOptions = () => withSession('Employee', () => api.POST('/api/employee/second-factor/step-up/options'));

async function stepUp(proof: { code: string } | { passkey: true }) {
  if ('code' in proof)
    return withSessionRenewal('Employee', () => api.POST('/api/employee/second-factor/step-up', { body: { code: proof.code } }));
  const options = await stepUpOptions();
  if (!options.passkey) throw new Error('You have no passkey.');
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const passkey = await startAuthentication({ optionsJSON: options.passkey as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
  return withSessionRenewal('Employee', () => api.POST('/api/employee/second-factor/step-up', { body: { passkey: passkey as never } }));
}

export const useStepUp = () => useBackofficeMutation(stepUp, ['secondFactor']);
