import { Check } from 'lucide-react';
import { useT } from '~/modules/i18n/react';

/** Step 1 Review Order, step 2 Delivery, step 3 Payment. */
export function CheckoutSteps({ current }: { current: 'review' | 'delivery' | 'payment' | 'done' }) {
  const t = useT();
  const steps = [
    { key: 'review', label: t('checkout.steps.review') },
    { key: 'delivery', label: t('checkout.steps.delivery') },
    { key: 'payment', label: t('checkout.steps.payment') },
  ] as const;
  const index = current === 'done' ? steps.length : steps.findIndex((step) => step.key === current);
  return (
    <ol className="flex items-center gap-2 text-sm font-medium sm:gap-3" aria-label={t('checkout.steps.label')}>
      {steps.map((step, i) => (
        <li key={step.key} className="flex items-center gap-2 sm:gap-3" aria-current={i === index ? 'step' : undefined}>
          <span
            className={`flex h-8 w-8 items-center justify-center rounded-full text-sm font-semibold ${
              i < index ? 'bg-leaf text-white' : i === index ? 'bg-roast text-cream' : 'bg-sand text-roast-600'
            }`}
          >
            {i < index ? <Check aria-hidden="true" className="h-4 w-4" /> : i + 1}
          </span>
          {/* On a phone only the current step is named on screen (the others stay named for screen readers). */}
          <span className={i === index ? 'text-roast' : 'sr-only text-muted sm:not-sr-only'}>{step.label}</span>
          {i < steps.length - 1 && <span aria-hidden="true" className="h-px w-6 bg-sand-dark sm:w-16" />}
        </li>
      ))}
    </ol>
  );
}
