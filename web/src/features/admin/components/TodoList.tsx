// The dashboard's to-do list: what waits for staff (GET /api/v1/admin/todo, the same counts as the
// side navigation), each line a link to the list filtered to it. Nothing waiting says so.
import { Link } from 'react-router';
import { TODO_LINKS, todoText, useStaffTodo, type StaffTodo } from '../api/getTodo';

const ORDER: (keyof StaffTodo)[] = ['orders_to_ship', 'payments_to_return', 'enquiries_open', 'mail_failed'];

export function TodoList() {
  const todo = useStaffTodo();
  if (!todo.data) return null;
  const { data } = todo;
  const waiting = ORDER.filter((key) => data[key] > 0);
  return (
    <section aria-labelledby="staff-todo" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="staff-todo" className="text-lg font-semibold text-slate-900">
        To do
      </h2>
      {waiting.length === 0 ? (
        <p className="mt-2 text-slate-600">Nothing waiting.</p>
      ) : (
        <ul className="mt-2 space-y-1">
          {waiting.map((key) => (
            <li key={key}>
              <Link to={TODO_LINKS[key]} className="font-medium text-brand-700 hover:underline">
                {todoText(key, data[key])}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
