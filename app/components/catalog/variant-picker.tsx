import { Form } from 'react-router';
import { useHydrated } from '~/lib/use-hydrated';
import { type OptionKind, type Variant, findVariant, optionLabel, optionValue, optionValueLabel, optionValues } from '~/modules/catalog/variants';
import { useI18n } from '~/modules/i18n/react';

export type Choice = Partial<Record<OptionKind, string>>;

/**
 * A product's options as groups of choices (a size, a grind, a pack): radio buttons in fieldsets, so a keyboard
 * moves through each group with the arrow keys and a screen reader names the group and the choice. It is a GET
 * form: without JavaScript "Show" loads the chosen variant's own URL (`?size=1000&grind=espresso`); with it,
 * choosing changes the page at once and the URL in place. A value the other choice does not combine with is
 * marked, and choosing it moves the other choice to one that does.
 */
export function VariantPicker({ options, variants, chosen, onChoose }: { options: OptionKind[]; variants: Variant[]; chosen: Choice; onChoose: (choice: Choice) => void }) {
  const { t, locale } = useI18n();
  const hydrated = useHydrated();
  if (options.length === 0) return null;

  const choose = (kind: OptionKind, value: string) => {
    const wanted = { ...chosen, [kind]: value };
    // Keep the other choices if the product offers that combination; else the first variant with this value.
    const variant = findVariant(variants, options, wanted) ?? variants.find((v) => optionValue(v, kind) === value);
    onChoose(variant ? Object.fromEntries(options.map((k) => [k, optionValue(variant, k)])) : wanted);
  };

  return (
    <Form method="get" preventScrollReset replace className="mt-6 grid gap-5" data-testid="variant-picker">
      {options.map((kind) => (
        <fieldset key={kind}>
          <legend className="text-sm font-semibold text-roast">{optionLabel(kind, t)}</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {optionValues(variants, kind).map((value) => {
              const match = findVariant(variants, options, { ...chosen, [kind]: value });
              const combines = match !== undefined;
              // Marked only when others can be had (a coffee sold out altogether says so once, above).
              const soldOut = match?.left === 0 && variants.some((v) => v.left !== 0);
              const id = `option-${kind}-${value}`;
              return (
                <div key={value}>
                  <input
                    type="radio"
                    id={id}
                    name={kind}
                    value={value}
                    checked={chosen[kind] === value}
                    onChange={() => choose(kind, value)}
                    className="peer sr-only"
                    aria-describedby={combines ? undefined : `${id}-note`}
                  />
                  <label
                    htmlFor={id}
                    className={`inline-flex min-h-11 cursor-pointer items-center rounded-full px-4 text-sm font-medium ring-1 transition-colors peer-checked:bg-roast peer-checked:text-cream peer-checked:ring-roast peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-leaf ${
                      combines ? 'bg-paper text-roast ring-sand-dark hover:ring-roast' : 'bg-cream text-muted ring-sand line-through decoration-1 hover:ring-roast/40'
                    }`}
                  >
                    <span className="inline-block first-letter:uppercase">{optionValueLabel(kind, value, t, locale)}</span>
                    {soldOut && <span className="ml-1.5 text-xs font-normal opacity-80">· {t('product.soldOut')}</span>}
                  </label>
                  {!combines && (
                    <span id={`${id}-note`} className="sr-only">
                      {t('variant.otherChoice')}
                    </span>
                  )}
                </div>
              );
            })}
          </div>
        </fieldset>
      ))}
      {!hydrated && (
        <div>
          <button type="submit" className="btn-outline">{t('variant.show')}</button>
        </div>
      )}
    </Form>
  );
}
