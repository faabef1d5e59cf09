/** The session secret of the browser journeys' shop, so they can make signed cookies as the shop would. */
export const E2E_SESSION_SECRET = 'the-browser-journeys-sign-their-cookies-with-this';
