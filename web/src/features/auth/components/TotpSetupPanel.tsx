// The two-factor set-up panel (spec section 9): QR code, the secret with Copy, the 6-digit code,
// Cancel and 'Enable MFA'. Opening it enrols a new TOTP factor (earlier unfinished ones go).
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { errorMessage } from '@/lib/api';
import { enrolTotp, removeFactor, verifyTotp, type TotpEnrolment } from '../api/factors';
import { CodeInput, ErrorBox, MFA_CODE_LENGTH } from './CodeInput';
import { CopyButton } from './CopyButton';

export const ENROL_FAILED_TEXT = 'Failed to enroll MFA';
export const INVALID_CODE_TEXT = 'Invalid verification code';
export const NO_FACTOR_ID_TEXT = 'No factor ID available';

interface TotpSetupPanelProps {
  label: string;
  onCancelled: () => void;
  onEnabled: () => void;
}

type Enrolment = { state: 'enrolling' } | { state: 'failed'; message: string } | ({ state: 'ready' } & TotpEnrolment);

export function TotpSetupPanel({ label, onCancelled, onEnabled }: TotpSetupPanelProps) {
  const [enrolment, setEnrolment] = useState<Enrolment>({ state: 'enrolling' });
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const started = useRef(false);

  // Enrol once per opening of the panel (the ref keeps StrictMode's second effect run from
  // enrolling a second factor).
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    enrolTotp(label).then(
      (result) => setEnrolment({ state: 'ready', ...result }),
      (thrown: unknown) => {
        console.error('MFA enrolment failed', thrown);
        setEnrolment({ state: 'failed', message: errorMessage(thrown, ENROL_FAILED_TEXT) });
      },
    );
  }, [label]);

  const factorId = enrolment.state === 'ready' ? enrolment.factorId : null;

  const onCancel = async () => {
    setCancelling(true);
    // The pending factor is dropped; should that fail, the next set-up removes it anyway.
    if (factorId) await removeFactor(factorId).catch((thrown: unknown) => console.error('Could not remove the pending factor', thrown));
    onCancelled();
  };

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (verifying || code.length !== MFA_CODE_LENGTH) return;
    if (!factorId) {
      setError(NO_FACTOR_ID_TEXT);
      return;
    }
    setVerifying(true);
    setError(null);
    try {
      await verifyTotp(factorId, code);
    } catch (thrown) {
      console.error('MFA verification failed', thrown);
      setError(errorMessage(thrown, INVALID_CODE_TEXT));
      setVerifying(false);
      return;
    }
    setVerifying(false);
    onEnabled();
  };

  return (
    <div className="mt-4 space-y-6">
      <h3 className="text-base font-semibold text-slate-900">Set Up Two-Factor Authentication</h3>
      {enrolment.state === 'enrolling' ? (
        <p role="status" className="text-slate-500">
          Preparing your QR code...
        </p>
      ) : null}
      {enrolment.state === 'failed' ? <ErrorBox message={enrolment.message} /> : null}
      {enrolment.state === 'ready' ? (
        <>
          <div>
            <p className="text-sm text-slate-700">1. Scan this QR code with your authenticator app.</p>
            <div className="mt-3 inline-block rounded-xl border border-slate-200 bg-white p-3">
              <QRCodeSVG value={enrolment.uri} size={256} marginSize={1} level="M" title="QR code for your authenticator app" />
            </div>
          </div>
          <div>
            <p className="text-sm text-slate-700">
              2. Or enter this secret key by hand:
            </p>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <code className="rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900" data-testid="mfa-secret">
                {enrolment.secret}
              </code>
              <CopyButton text={enrolment.secret} />
            </div>
          </div>
        </>
      ) : null}
      <form onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-busy={verifying}>
        <ErrorBox message={error} />
        <CodeInput
          label="3. Enter the 6-digit code from the app"
          value={code}
          onChange={setCode}
          disabled={verifying || enrolment.state === 'failed'}
          invalid={Boolean(error)}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={() => void onCancel()} disabled={cancelling || verifying}>
            Cancel
          </button>
          <button type="submit" className="btn-primary" disabled={verifying || code.length !== MFA_CODE_LENGTH}>
            {verifying ? 'Verifying...' : 'Enable MFA'}
          </button>
        </div>
      </form>
    </div>
  );
}

