import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatCvc, formatExpiry } from './card-format';

describe('card fields that format themselves', () => {
  it('groups the card number in fours', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 42')).toBe('4242 42');
    expect(formatCardNumber('4242-4242x4')).toBe('4242 4242 4');
    expect(formatCardNumber('4242')).toBe('4242');
    expect(formatCardNumber('12345678901234567890123')).toBe('1234 5678 9012 3456 789');
  });
  it('writes the expiry as MM/YY from the digits a keypad types', () => {
    expect(formatExpiry('1230')).toBe('12/30');
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12/');
    expect(formatExpiry('12', true)).toBe('12');
    expect(formatExpiry('4')).toBe('04/');
    expect(formatExpiry('12/3')).toBe('12/3');
    expect(formatExpiry('12/345')).toBe('12/34');
    expect(formatExpiry('')).toBe('');
  });
  it('keeps the security code to four digits', () => {
    expect(formatCvc('12a34 5')).toBe('1234');
  });
});
