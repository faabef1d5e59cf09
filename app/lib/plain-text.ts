/**
 * Characters no name, address or message needs, refused in every such field: C0 and C1 control characters
 * (NUL, escape …; a message keeps its tabs and line breaks), DEL, Unicode line and paragraph separators, and
 * the bidirectional controls that make text read differently from what is stored (Trojan Source: the
 * overrides U+202A–U+202E, the isolates U+2066–U+2069, and the marks U+200E, U+200F, U+061C).
 */
const forbiddenInLine = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const forbiddenInText = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** True when a one-line value (names, addresses, subjects) holds none of those characters. */
export const isPlainLine = (value: string) => !forbiddenInLine.test(value);
/** The same for multi-line text (messages): tabs and line breaks are welcome. */
export const isPlainText = (value: string) => !forbiddenInText.test(value);
