import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input/Input';
import Select from 'antd/es/select';
import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../directory/components/DataTable';
import type { ListStateHook } from '../directory/components/list-state';

interface FilterProps {
  /** The list whose filter `name` (the API parameter) this sets; '' is none. */
  list: ListStateHook;
  name: string;
  label: string;
}

/** Sets one filter of a list, leaving the others. */
function setFilter([state, setState]: ListStateHook, name: string, value: string): void {
  setState({ filters: { ...state.filters, [name]: value } });
}

/** A filter picked from a closed list, cleared back to "all". */
export function SelectFilter({ list, name, label, placeholder, options, search = false }: FilterProps & {
  placeholder: string;
  options: Array<{ value: string; label: string }>;
  search?: boolean;
}) {
  return (
    <Select<string>
      className="directory-filter"
      aria-label={label}
      placeholder={placeholder}
      allowClear
      showSearch={search ? { optionFilterProp: 'label' } : undefined}
      popupMatchSelectWidth={false}
      value={list[0].filters[name] || undefined}
      options={options}
      onChange={(value) => setFilter(list, name, value ?? '')}
    />
  );
}

/** A free-text filter, handed to the list once the user pauses typing. */
export function TextFilter({ list, name, label, className }: FilterProps & { className?: string }) {
  const current = list[0].filters[name] ?? '';
  const [text, setText] = useState(current);
  const [, setState] = list;
  useEffect(() => {
    if (text.trim() === current) return undefined;
    const timer = setTimeout(() => setState({ filters: { ...list[0].filters, [name]: text.trim() } }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, current, name, list, setState]);
  return (
    <Input
      className={className ?? 'directory-filter'}
      allowClear
      aria-label={label}
      placeholder={label}
      value={text}
      onChange={(event) => setText(event.target.value)}
    />
  );
}

/** A yes-or-nothing filter: ticked sends `true`, unticked leaves it out. */
export function FlagFilter({ list, name, label, disabled }: FilterProps & { disabled?: boolean }) {
  return (
    <Checkbox checked={list[0].filters[name] === 'true'} disabled={disabled} onChange={(event) => setFilter(list, name, event.target.checked ? 'true' : '')}>
      {label}
    </Checkbox>
  );
}
