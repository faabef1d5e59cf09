import { formatDateTime } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';

/** Where a document stands with KSeF (app/modules/invoices/register.server.ts). */
export type KsefStandingName = 'outside' | 'recorded' | 'waiting' | 'queued' | 'unsure' | 'sent' | 'accepted' | 'refused';

const colours: Record<KsefStandingName, string> = {
  outside: 'bg-sand/60 text-roast-600',
  recorded: 'bg-leaf-light text-leaf-dark',
  waiting: 'bg-[#fbefd9] text-[#7a4a0c]',
  queued: 'bg-[#fbefd9] text-[#7a4a0c]',
  unsure: 'bg-[#fbefd9] text-[#7a4a0c]',
  sent: 'bg-[#e1ecf7] text-[#1d4a78]',
  accepted: 'bg-leaf-light text-leaf-dark',
  refused: 'bg-cherry-light text-cherry',
};

/**
 * A document's KSeF standing as a badge, with its KSeF number once it has one, KSeF's own words for a refusal,
 * and, for one not yet in KSeF after its issue day (or handed to its buyer offline), the offline24 deadline (in red
 * when it is under a day away).
 */
export function KsefStanding({
  standing,
  ksefNumber,
  errorCode,
  errorText,
  deadline,
  offline,
  handedOverAt,
}: {
  standing: KsefStandingName;
  ksefNumber: string | null;
  errorCode?: number | null;
  errorText?: string | null;
  deadline?: string | null;
  offline?: boolean;
  handedOverAt?: string | null;
}) {
  const { t, locale } = useI18n();
  const shown = standing;
  const close = deadline ? Date.parse(deadline) - Date.now() < 24 * 3600_000 : false;
  return (
    <div className="grid gap-1" data-testid="ksef-standing">
      <span className={`w-fit rounded-full px-2.5 py-0.5 text-xs font-semibold ${colours[shown]}`} data-testid="ksef-status">{t(`admin.ksef.standing.${shown}`)}</span>
      {ksefNumber && (shown === 'accepted' || shown === 'recorded') && <span className="font-mono text-xs break-all" data-testid="ksef-number">{ksefNumber}</span>}
      {shown === 'refused' && errorText && (
        <span className="text-xs text-cherry" data-testid="ksef-refusal">
          {errorCode ? `${errorCode}: ` : ''}
          {errorText}
        </span>
      )}
      {shown !== 'refused' && shown !== 'accepted' && errorText && <span className="text-xs text-muted">{t('admin.ksef.lastProblem', { problem: errorText })}</span>}
      {handedOverAt && (
        <span className="text-xs text-muted" data-testid="ksef-handed-over">
          {t('admin.ksef.handedOver', { when: formatDateTime(handedOverAt, locale) })}
        </span>
      )}
      {deadline && offline && (
        <span className={`text-xs ${close ? 'font-semibold text-cherry' : 'text-muted'}`} data-testid="ksef-deadline">
          {t('admin.ksef.deadline', { when: formatDateTime(deadline, locale) })}
        </span>
      )}
    </div>
  );
}
