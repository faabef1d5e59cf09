import * as z from 'zod/mini';
import { isPlainLine, isPlainText } from './plain-text';

/** A zod check for one-line fields (names, addresses, subjects): refuses the characters `plain-text.ts` names. */
export const plainLine = (error: string) => z.refine<string>(isPlainLine, { error });

/** A zod check for multi-line text (messages): the same, but tabs and line breaks are welcome. */
export const plainText = (error: string) => z.refine<string>(isPlainText, { error });
