// Recovery codes on /account/security and /admin/mfa (docs/auth.md, "Recovery codes"): how many
// are left, and a new set of ten, shown once with Copy and Download. Making a new set when one
// exists first says that the old codes stop working.
import { useState } from 'react';
import { LOAD_ERROR_CLASS, LoadError } from '@/components/list/LoadError';
import { Dialog } from '@/components/Dialog';
import { errorMessage } from '@/lib/api';
import { SITE_NAME } from '@/lib/head';
import { RECOVERY_CODE_COUNT, useGenerateRecoveryCodes, useRecoveryCodeStatus } from '../api/recoveryCodes';
import { ErrorBox } from './CodeInput';
import { CopyButton } from './CopyButton';

export const REGENERATE_CONFIRM_TEXT =
  'Your current recovery codes stop working at once, used or not. Save the new codes somewhere safe.';

function download(codes: string[]) {
  const text = `${SITE_NAME} recovery codes\n\nEach code works once, in place of a code from your authenticator app.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${SITE_NAME.toLowerCase()}-recovery-codes.txt`;
  link.click();
  URL.revokeObjectURL(url);
}

function NewCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div role="region" aria-label="Your new recovery codes" className="mt-4 rounded-xl border border-amber-200 bg-amber-50 p-4">
      <p className="font-semibold text-amber-900">Save these codes now: they are shown only this once.</p>
      <ol className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-slate-900" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <CopyButton text={codes.join('\n')} label="Copy codes" />
        <button type="button" className="btn-secondary" onClick={() => download(codes)}>
          Download
        </button>
        <button type="button" className="btn-primary" onClick={onDone}>
          I have saved my codes
        </button>
      </div>
    </div>
  );
}

export function RecoveryCodesPanel() {
  const status = useRecoveryCodeStatus();
  const generate = useGenerateRecoveryCodes();
  const [shown, setShown] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hasSet = Boolean(status.data?.created_at);

  const make = () => {
    setError(null);
    generate.mutate(undefined, {
      onSuccess: (set) => {
        setConfirming(false);
        setShown(set.codes);
      },
      onError: (thrown) => {
        setConfirming(false);
        setError(errorMessage(thrown, 'Could not make recovery codes. Please try again.'));
      },
    });
  };

  return (
    <section aria-labelledby="recovery-codes-heading" className="mt-6 border-t border-slate-200 pt-6">
      <h3 id="recovery-codes-heading" className="text-base font-semibold text-slate-900">
        Recovery codes
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        If you lose your phone, a recovery code signs you in instead of a code from the app. Each code works once.
      </p>
      {status.isPending ? (
        <p role="status" className="mt-3 text-sm text-slate-500">
          Loading ...
        </p>
      ) : status.isError ? (
        <LoadError className={`mt-3 ${LOAD_ERROR_CLASS}`} error={status.error} title="Could not load your recovery codes." retrying={status.isFetching} onRetry={() => void status.refetch()} />
      ) : (
        <p className="mt-3 text-sm font-medium text-slate-800" data-testid="recovery-codes-left">
          {hasSet ? `${String(status.data.remaining)} of ${String(RECOVERY_CODE_COUNT)} recovery codes left` : 'You have no recovery codes yet.'}
        </p>
      )}
      <div className="mt-3">
        <ErrorBox message={error} />
      </div>
      {shown ? (
        <NewCodes codes={shown} onDone={() => setShown(null)} />
      ) : (
        <button
          type="button"
          className="btn-secondary mt-3"
          disabled={generate.isPending || status.isPending}
          onClick={() => (hasSet ? setConfirming(true) : make())}
        >
          {hasSet ? 'Generate new recovery codes' : 'Generate recovery codes'}
        </button>
      )}
      <Dialog open={confirming} onClose={() => setConfirming(false)} title="Generate new recovery codes?" description={REGENERATE_CONFIRM_TEXT}>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <button type="button" className="btn-primary" disabled={generate.isPending} onClick={make}>
            {generate.isPending ? 'Generating...' : 'Generate new codes'}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
