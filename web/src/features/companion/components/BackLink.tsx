import { Link } from 'react-router';

/** The way back to the companion admin from its sub-pages. */
export function BackLink() {
  return (
    <Link to="/admin/wirewrite" className="text-sm font-medium text-brand-700 hover:underline">
      ← Back to WireWrite Admin
    </Link>
  );
}
