import { Fragment } from 'react';
import { Link } from 'react-router';
import { useI18n } from '~/modules/i18n/react';
import { type LegalPage, legalPath } from '~/modules/legal/pages';

/**
 * A translated sentence that links to legal pages: `common:legal.sentences.{name}` holds the text with
 * `{{placeholders}}` and, beside it, each link's words in the case the sentence needs (Polish declines them).
 */
export function LegalSentence({
  name,
  links,
  className,
  inline = false,
}: {
  name: 'cookies' | 'signUp' | 'payment';
  links: Record<string, LegalPage>;
  className?: string;
  /** Inside another paragraph (a span) rather than a paragraph of its own. */
  inline?: boolean;
}) {
  const { t, path } = useI18n();
  const text = t(`legal.sentences.${name}.text`);
  const parts = text.split(/\{\{(\w+)\}\}/);
  const Sentence = inline ? 'span' : 'p';
  return (
    <Sentence className={className}>
      {parts.map((part, i) => {
        const page = i % 2 === 1 ? links[part] : undefined;
        if (i % 2 === 0 || !page) return <Fragment key={i}>{part}</Fragment>;
        return (
          <Link key={i} to={path(legalPath(page))} className="underline underline-offset-2 hover:text-roast">
            {t(`legal.sentences.${name}.${part}`)}
          </Link>
        );
      })}
    </Sentence>
  );
}
