/** The Kopi wordmark with its bean mark. */
export function Logo({ className = '', onDark = false }: { className?: string; onDark?: boolean }) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <svg viewBox="0 0 32 32" aria-hidden="true" className="h-8 w-8 shrink-0">
        <ellipse cx="16" cy="16" rx="11" ry="14" transform="rotate(35 16 16)" fill="currentColor" />
        <path d="M10.5 25.5c4-4 2.5-9.5 5.5-13s5-4.5 6-6" stroke={onDark ? 'var(--color-roast)' : 'var(--color-cream)'} strokeWidth="2" fill="none" strokeLinecap="round" />
      </svg>
      <span className="font-serif text-2xl font-semibold tracking-tight">Kopi</span>
    </span>
  );
}
