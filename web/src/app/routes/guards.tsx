// Route access from the spec's route table: signed-in routes send visitors to /, checkout adds
// the state that opens the sign-in dialog, and admin routes send non-admins to /. While the stored
// session is being restored nothing is decided: a reload of /dashboard must not bounce to /.
import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useAuth } from '@/lib/auth';
import type { OpenSignInState } from '../layout/RootLayout';

function SessionLoading() {
  return (
    <p className="mx-auto max-w-6xl px-4 py-24 text-center text-slate-500" role="status">
      Loading ...
    </p>
  );
}

export function RequireUser({ openSignIn = false, children }: { openSignIn?: boolean; children?: ReactNode }) {
  const { user, loading } = useAuth();
  if (loading) return <SessionLoading />;
  if (!user) {
    const state: OpenSignInState | null = openSignIn ? { openSignIn: true } : null;
    return <Navigate to="/" replace state={state} />;
  }
  return children ?? <Outlet />;
}

export function RequireAdmin() {
  const { user, isAdmin, loading } = useAuth();
  if (loading) return <SessionLoading />;
  if (!user || !isAdmin) return <Navigate to="/" replace />;
  return <Outlet />;
}
