/** The pages an EU shop must publish, in the order the footer lists them. Their URLs are /legal/{page}. */
export const legalPages = ['terms', 'privacy', 'cookies', 'shipping-returns', 'seller', 'reviews'] as const;
export type LegalPage = (typeof legalPages)[number];

export const isLegalPage = (value: string | undefined): value is LegalPage => legalPages.includes(value as LegalPage);

export const legalPath = (page: LegalPage) => `/legal/${page}`;
