/** Fuzzing the shopper’s forms, the analytics and consent APIs, the Stripe webhook and the pages: see server/fuzz.ts. */
import { describeFuzz } from './fuzz';

describeFuzz('storefront');
