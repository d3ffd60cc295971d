// The session state (useAuth, AuthContext) lives in @/lib/auth; this feature fills it and owns
// the dialogs that change it. Its page is in pages.ts, for the route table.
export { AuthProvider } from './AuthProvider';
