import { useState } from 'react';

type Parse<E> = (data: FormData) => { ok: true } | { ok: false; fieldErrors: E };

/**
 * Runs a form's schema in the browser before it is sent (the server runs it again): invalid input is not
 * submitted, its messages show at once and the first invalid field gets focus.
 */
export function useClientValidation<E extends Partial<Record<string, string>>>(parse: Parse<E>) {
  const [errors, setErrors] = useState<E | null>(null);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const check = parse(new FormData(event.currentTarget));
    if (check.ok) {
      setErrors(null);
      return;
    }
    event.preventDefault();
    setErrors(check.fieldErrors);
    const first = Object.keys(check.fieldErrors).find((name) => check.fieldErrors[name]);
    if (first) event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };
  return { errors, setErrors, onSubmit };
}
