import * as z from 'zod/mini';

/**
 * Characters no name, address or message needs, refused in every such field: C0 and C1 control characters
 * (NUL, escape …; a message keeps its tabs and line breaks), DEL, Unicode line and paragraph separators, and
 * the bidirectional controls that make text read differently from what is stored (Trojan Source: the
 * overrides U+202A–U+202E, the isolates U+2066–U+2069, and the marks U+200E, U+200F, U+061C).
 */
const forbiddenInLine = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const forbiddenInText = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** A check for one-line fields (names, addresses, subjects): refuses the characters above. */
export const plainLine = (error: string) => z.refine<string>((value) => !forbiddenInLine.test(value), { error });

/** A check for multi-line text (messages): the same, but tabs and line breaks are welcome. */
export const plainText = (error: string) => z.refine<string>((value) => !forbiddenInText.test(value), { error });

/** The same checks without zod: true when a one-line value (or multi-line text) holds none of those characters. */
export const isPlainLine = (value: string) => !forbiddenInLine.test(value);
export const isPlainText = (value: string) => !forbiddenInText.test(value);
