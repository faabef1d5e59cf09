import { TriangleAlert } from 'lucide-react';
import { useI18n } from '~/modules/i18n/react';

/** The shop's legal details are set but issue no invoices (a NIP that fails its checksum, a detail missing): said plainly. */
export function SellerProblem({ problem }: { problem: 'incomplete' | 'taxId' | null }) {
  const { t } = useI18n();
  if (!problem) return null;
  return (
    <p role="alert" className="flex items-start gap-3 rounded-2xl bg-cherry-light px-5 py-4 text-sm text-cherry ring-1 ring-cherry/20" data-testid="seller-problem">
      <TriangleAlert aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
      <span>{t(`admin.invoices.sellerProblem.${problem}`)}</span>
    </p>
  );
}
