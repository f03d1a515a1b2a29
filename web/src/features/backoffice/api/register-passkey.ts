// A new passkey: the server's options, the browser's own dialog (SimpleWebAuthn, loaded with it),
// and the answer sent back with the name the employee gave.
import { api, withSession, withSessionRenewal } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

/** `currentPassword`: needed for a first second factor (the API says so otherwise). */
async function registerPasskey({ name, currentPassword }: { name: string; currentPassword?: string }) {
  const optionsJSON = await withSession('Employee', () =>
    api.POST('/api/employee/second-factor/passkeys/options', { body: { currentPassword } }),
  );
  const { startRegistration } = await import('@simplewebauthn/browser');
  const response = await startRegistration({ optionsJSON: optionsJSON as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  // The browser's dialog may outlast the access token: the answer is sent with a refresh if need be.
  return withSessionRenewal('Employee', () =>
    api.POST('/api/employee/second-factor/passkeys', { body: { name, response: response as never } }),
  );
}

/** Changing one's factors ends one's other sessions: the sessions list is read again too. */
export const useRegisterPasskey = () => useBackofficeMutation(registerPasskey, ['secondFactor', 'sessions']);
