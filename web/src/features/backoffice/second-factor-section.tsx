// The employee's own second factor on the Account screen (beyond the spec): an authenticator app
// (a QR code and the secret as text, counted once a first code confirms it), passkeys (added with
// the browser's own dialog, named, renamed, removed), and ten recovery codes shown once. Changing
// what is already set up asks for the second factor again when it is 10 minutes old.
import { PASSKEY_NAME_MAX } from '@bookshop/rules';
import { useState } from 'react';
import { BusyButton, SubmitButton } from '../../components/busy-button';
import { LoadError } from '../../components/load-error';
import { Notice, useNotice } from '../../components/notice';
import { failureReason } from '../../lib/failure-reason';
import { dateTime } from '../../lib/format';
import { useSubmitOnce } from '../../lib/use-submit-once';
import { useConfirmTotp } from './api/confirm-totp';
import { useSecondFactor } from './api/get-second-factor';
import { useRegisterPasskey } from './api/register-passkey';
import { useRemovePasskey } from './api/remove-passkey';
import { useRemoveTotp } from './api/remove-totp';
import { useRenamePasskey } from './api/rename-passkey';
import { useRenewRecoveryCodes } from './api/renew-recovery-codes';
import { useStartTotp } from './api/start-totp';
import { useStepUpGuard } from './step-up';

type Show = ReturnType<typeof useNotice>[1];
type Guard = ReturnType<typeof useStepUpGuard>['guard'];

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section aria-label="Your recovery codes" className="recovery-codes">
      <p>
        Keep these ten recovery codes somewhere safe. Each signs you in once if you lose your app and passkeys. They are shown only now.
      </p>
      <ol>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <button type="button" onClick={onDone}>
        I have saved them
      </button>
    </section>
  );
}

function TotpSetup({
  guard,
  show,
  onCodes,
  currentPassword,
}: {
  guard: Guard;
  show: Show;
  onCodes: (codes: string[] | null) => void;
  currentPassword?: string;
}) {
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const [setup, setSetup] = useState<{ secret: string; qr: string } | null>(null);
  const [code, setCode] = useState('');
  const begin = async () => {
    try {
      const { secret, otpauthUrl } = await guard(() => start.mutateAsync(currentPassword));
      const { toDataURL } = await import('qrcode');
      setSetup({ secret, qr: await toDataURL(otpauthUrl, { margin: 1, width: 200 }) });
    } catch (error) {
      show('Could not start the setup.', 'error', failureReason(error));
    }
  };
  if (!setup) {
    return (
      <BusyButton onClick={() => void begin()} busy={start.isPending}>
        Set up an authenticator app
      </BusyButton>
    );
  }
  return (
    <form
      className="form"
      aria-label="Authenticator app setup"
      onSubmit={(event) => {
        event.preventDefault();
        guard(() => confirm.mutateAsync(code.trim())).then(
          ({ recoveryCodes }) => {
            setSetup(null);
            onCodes(recoveryCodes);
            show('Authenticator app set up.');
          },
          (error) => show('That code was not accepted.', 'error', failureReason(error)),
        );
      }}
    >
      <p>Scan this code with your authenticator app, then type the six digits it shows.</p>
      <img src={setup.qr} alt="QR code for your authenticator app" width={200} height={200} />
      <p>
        Or type this secret into the app: <code data-testid="totp-secret">{setup.secret}</code>
      </p>
      <label>
        Code from the app
        <input value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" required />
      </label>
      <SubmitButton busy={confirm.isPending}>Confirm</SubmitButton>
    </form>
  );
}

function PasskeyRow({
  passkey,
  guard,
  show,
}: {
  passkey: { id: number; name: string; createdAt: string; lastUsedAt: string | null };
  guard: Guard;
  show: Show;
}) {
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const removing = useSubmitOnce();
  const [name, setName] = useState(passkey.name);
  return (
    <li>
      <form
        className="inline-form"
        aria-label={`Passkey ${passkey.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutateAsync({ id: passkey.id, name }).then(
            () => show('Passkey renamed.'),
            (error) => show('Failed to rename the passkey.', 'error', failureReason(error)),
          );
        }}
      >
        <label>
          Passkey name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={PASSKEY_NAME_MAX} required />
        </label>
        <SubmitButton busy={rename.isPending} notReady={name === passkey.name} look="plain">
          Rename
        </SubmitButton>
        <BusyButton
          className="danger"
          aria-label={`Remove passkey ${passkey.name}`}
          busy={removing.busy}
          onClick={removing.handle(async () => {
            if (!window.confirm(`Remove the passkey "${passkey.name}"? You will no longer be able to sign in with it.`)) return;
            await guard(() => remove.mutateAsync(passkey.id)).then(
              () => show('Passkey removed.'),
              (error) => show('Failed to remove the passkey.', 'error', failureReason(error)),
            );
          })}
        >
          Remove
        </BusyButton>
      </form>
      <span className="muted">
        Added {dateTime(passkey.createdAt)}; {passkey.lastUsedAt ? `last used ${dateTime(passkey.lastUsedAt)}` : 'not used yet'}
      </span>
    </li>
  );
}

export function SecondFactorSection() {
  const { data, error, refetch } = useSecondFactor();
  const { guard, prompt } = useStepUpGuard();
  const [notice, show] = useNotice();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [passkeyName, setPasskeyName] = useState('');
  // A first second factor needs the password: a session alone must not enrol one.
  const [password, setPassword] = useState('');
  const removeTotp = useRemoveTotp();
  const register = useRegisterPasskey();
  const renew = useRenewRecoveryCodes();
  // Each removes or replaces a way to sign in: asked first, and sent once however often it is clicked.
  const removingTotp = useSubmitOnce();
  const renewing = useSubmitOnce();
  // An Admin kept on this screen to enrol must not be left on "Loading..." by an outage.
  if (!data) {
    return error ? (
      <LoadError what="your second factors" error={error} onRetry={() => void refetch()} />
    ) : (
      <p className="muted">Loading...</p>
    );
  }
  const hasFactor = data.totp || data.passkeys.length > 0;
  const currentPassword = hasFactor ? undefined : password;
  const showCodes = (given: string[] | null) => {
    setPassword('');
    if (given) setCodes(given);
  };

  return (
    <section aria-labelledby="second-factor-heading">
      <h2 id="second-factor-heading">Second Factor</h2>
      {prompt}
      {data.required && (
        <p role="alert" className="notice notice-error">
          Admins must set up a second factor (an authenticator app or a passkey) before using the back-office.
        </p>
      )}
      <Notice notice={notice} />
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      {!hasFactor && (
        <div className="form">
          <label>
            Your password
            <input
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-describedby="first-factor-password-hint"
            />
          </label>
          <p id="first-factor-password-hint" className="muted">
            Setting up your first second factor asks for your password.
          </p>
        </div>
      )}

      <h3>Authenticator app</h3>
      {data.totp ? (
        <div className="actions">
          <p>An authenticator app is set up.</p>
          <BusyButton
            className="danger"
            busy={removingTotp.busy}
            onClick={removingTotp.handle(async () => {
              if (!window.confirm('Remove the authenticator app? Its codes will no longer sign you in.')) return;
              await guard(() => removeTotp.mutateAsync()).then(
                () => show('Authenticator app removed.'),
                (error) => show('Failed to remove the authenticator app.', 'error', failureReason(error)),
              );
            })}
          >
            Remove authenticator app
          </BusyButton>
        </div>
      ) : (
        <TotpSetup guard={guard} show={show} onCodes={showCodes} currentPassword={currentPassword} />
      )}

      <h3>Passkeys</h3>
      {data.passkeys.length ? (
        <ul className="passkeys">
          {data.passkeys.map((p) => (
            <PasskeyRow key={`${p.id}-${p.name}`} passkey={p} guard={guard} show={show} />
          ))}
        </ul>
      ) : (
        <p className="empty">No passkeys yet.</p>
      )}
      <form
        className="inline-form"
        aria-label="New passkey"
        onSubmit={(event) => {
          event.preventDefault();
          guard(() => register.mutateAsync({ name: passkeyName.trim() || 'Passkey', currentPassword })).then(
            ({ recoveryCodes }) => {
              setPasskeyName('');
              showCodes(recoveryCodes);
              show('Passkey added.');
            },
            (error) => show('The passkey was not added.', 'error', failureReason(error)),
          );
        }}
      >
        <label>
          Name of the new passkey
          <input
            value={passkeyName}
            onChange={(e) => setPasskeyName(e.target.value)}
            maxLength={PASSKEY_NAME_MAX}
            placeholder="e.g. Work laptop"
          />
        </label>
        <SubmitButton busy={register.isPending} look="plain">
          Add a passkey
        </SubmitButton>
      </form>

      {hasFactor && (
        <>
          <h3>Recovery codes</h3>
          <p>{data.recoveryCodesLeft} of 10 recovery codes left.</p>
          <BusyButton
            busy={renewing.busy}
            onClick={renewing.handle(async () => {
              if (!window.confirm('Make new recovery codes? The ones you have now will stop working.')) return;
              await guard(() => renew.mutateAsync()).then(setCodes, (error) =>
                show('Failed to make new recovery codes.', 'error', failureReason(error)),
              );
            })}
          >
            New recovery codes
          </BusyButton>
        </>
      )}
    </section>
  );
}
