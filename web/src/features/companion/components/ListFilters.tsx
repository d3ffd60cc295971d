// The search box and the one filter above each WireWrite staff list (users, certificates). A
// change to either goes back to page 1: the page asks the server for the new list.
export interface FilterOption<V extends string> {
  value: V;
  label: string;
}

interface Props<V extends string> {
  searchLabel: string;
  placeholder: string;
  search: string;
  filterLabel: string;
  filter: V;
  options: FilterOption<V>[];
  onSearch: (text: string) => void;
  onFilter: (value: V) => void;
}

export function ListFilters<V extends string>({ searchLabel, placeholder, search, filterLabel, filter, options, onSearch, onFilter }: Props<V>) {
  return (
    <div className="mt-6 flex flex-col gap-3 sm:flex-row">
      <label className="flex-1">
        <span className="sr-only">{searchLabel}</span>
        <input type="search" className="field-input" placeholder={placeholder} value={search} onChange={(e) => onSearch(e.target.value)} />
      </label>
      <label>
        <span className="sr-only">{filterLabel}</span>
        <select className="field-input" value={filter} onChange={(e) => onFilter(e.target.value as V)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
