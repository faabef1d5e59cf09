import type { DisplayStatus } from '~/modules/orders/orders.types';
import { useT } from '~/modules/i18n/react';

const colours: Record<DisplayStatus, string> = {
  processing: 'bg-[#fbefd9] text-[#7a4a0c]',
  shipped: 'bg-[#e1ecf7] text-[#1d4a78]',
  delivered: 'bg-leaf-light text-leaf-dark',
  cancelled: 'bg-cherry-light text-cherry',
  withdrawn: 'bg-gold/20 text-roast',
  returned: 'bg-sand text-roast',
};

/** An order's status as a coloured badge ("Delivered", "Withdrawn · refunded"), for the customer and the owner. */
export function StatusBadge({ status, size = 'xs', testId }: { status: DisplayStatus; size?: 'xs' | 'sm'; testId?: string }) {
  const t = useT();
  return (
    <span className={`rounded-full px-3 py-1 font-semibold ${size === 'sm' ? 'text-sm' : 'text-xs'} ${colours[status]}`} data-testid={testId}>
      {t(`orders.status.${status}`)}
    </span>
  );
}
