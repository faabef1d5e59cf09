/**
 * Email addresses as logs and error records keep them: the first letter and the domain ("o…@example.com"), plain
 * or URL-encoded ("o…%40example.com"). Enough to tell which customer or mailbox it was about, not to write to them.
 */
export function maskAddresses(text: string): string {
  return text.replace(/([A-Za-z0-9])(?:[A-Za-z0-9._+~!$'*-]|%(?!40)[0-9A-Fa-f]{2})*(@|%40)([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g, '$1…$2$3');
}
