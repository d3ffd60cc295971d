// An enterprise account's status: Active (green) or Inactive (grey).
export function StatusBadge({ active }: { active: boolean }) {
  return (
    <span
      data-tone={active ? 'green' : 'grey'}
      className={`rounded-full px-3 py-1 text-xs font-semibold ${active ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-700'}`}
    >
      {active ? 'Active' : 'Inactive'}
    </span>
  );
}
