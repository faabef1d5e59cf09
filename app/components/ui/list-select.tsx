import type { LucideIcon } from 'lucide-react';
import { useSubmit } from 'react-router';

/**
 * A labelled select that narrows or orders a list through its GET form: choosing an option submits the
 * form once the page has hydrated (the form keeps its own button for visitors without JavaScript).
 * `value` is the URL's; the select is re-keyed on it so going back in history shows the right choice.
 */
export function ListSelect({
  id,
  name,
  label,
  value,
  options,
  icon: Icon,
  className,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  icon: LucideIcon;
  className: string;
}) {
  const submit = useSubmit();
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          name={name}
          key={value}
          defaultValue={value}
          onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
          className={`field-input appearance-none pr-10 ${className}`}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <Icon aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 h-5 w-5 -translate-y-1/2 text-roast" />
      </div>
    </div>
  );
}
