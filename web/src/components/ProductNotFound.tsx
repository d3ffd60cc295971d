// The panel for a product that does not exist or is no longer on sale (spec section 4).
import { useNavigate } from 'react-router';

export function ProductNotFound() {
  const navigate = useNavigate();
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-10 text-center shadow-sm">
      <h1 className="text-2xl font-bold text-slate-900">Product Not Found</h1>
      <p className="mt-3 text-slate-600">The product you&apos;re looking for doesn&apos;t exist or is no longer available.</p>
      <button type="button" className="btn-primary mt-6" onClick={() => void navigate('/')}>
        Back to Home
      </button>
    </div>
  );
}
