import { useT } from '~/modules/i18n/react';

type Props = React.InputHTMLAttributes<HTMLInputElement> & { name: string; label: string; error?: string; hint?: string };

/** A labelled input with its error (an i18n key) announced and linked by aria-describedby. */
export function FormField({ name, label, error, hint, id = `field-${name}`, className = '', ...input }: Props) {
  const t = useT();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">{label}</label>
      <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={described} className="field-input" {...input} />
      {hint && <p id={`${id}-hint`} className="mt-1.5 text-xs text-muted">{hint}</p>}
      {error && <p id={`${id}-error`} className="field-error">{t(error)}</p>}
    </div>
  );
}
