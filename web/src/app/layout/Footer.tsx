import { useNavigate } from 'react-router';
import { COMPANY_LEGAL_NAME } from '@/lib/company';

export function Footer() {
  const navigate = useNavigate();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:px-6">
        <p>
          © {year} {COMPANY_LEGAL_NAME}. All rights reserved.
        </p>
        <nav aria-label="Legal" className="flex gap-2">
          <button type="button" className="btn-ghost" onClick={() => void navigate('/privacy')}>
            Privacy Policy
          </button>
          <button type="button" className="btn-ghost" onClick={() => void navigate('/terms')}>
            Terms and Conditions
          </button>
        </nav>
      </div>
    </footer>
  );
}
