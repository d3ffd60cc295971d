// /signup: the landing page with the Create Account form open (a link from a mail or another
// site). A signed-in visitor has an account already: the dashboard instead.
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { useAuth } from '@/lib/auth';
import { LandingRoute } from './LandingRoute';

export function SignUpRoute() {
  const { user, loading, openSignUp } = useAuth();
  const signedOut = !loading && !user;

  useEffect(() => {
    if (signedOut) openSignUp();
  }, [signedOut, openSignUp]);

  if (user) return <Navigate to="/dashboard" replace />;
  return <LandingRoute />;
}
