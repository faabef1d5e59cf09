/** Fuzzing the owner’s forms (under /admin, adding and editing a product): see server/fuzz.ts. */
import { describeFuzz } from './fuzz';

describeFuzz('back office');
