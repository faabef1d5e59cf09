/** The account deletion form's own checks, the same in the browser (for speed) and on the server (always). */
export type DeletionFieldErrors = Partial<Record<'reviews' | 'password' | 'confirm', string>>;

export function parseDeletionForm(form: FormData, { needsPassword }: { needsPassword: boolean }): { ok: true; reviews: 'keep' | 'remove'; password: string } | { ok: false; fieldErrors: DeletionFieldErrors } {
  const errors: DeletionFieldErrors = {};
  const reviews = form.get('reviews');
  if (reviews !== 'keep' && reviews !== 'remove') errors.reviews = 'privacy.delete.errors.reviews';
  const password = form.get('password');
  if (needsPassword && (typeof password !== 'string' || password.length === 0)) errors.password = 'privacy.delete.errors.passwordMissing';
  else if (needsPassword && typeof password === 'string' && password.length > 1024) errors.password = 'privacy.delete.errors.password';
  if (form.get('confirm') !== 'yes') errors.confirm = 'privacy.delete.errors.confirm';
  if (Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };
  return { ok: true, reviews: reviews as 'keep' | 'remove', password: typeof password === 'string' ? password : '' };
}
