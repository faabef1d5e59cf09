import { expect, it } from 'vitest';
import { allowConsoleError } from '../tests/setup/console-errors';

// tests/setup/console-errors.ts turns a console.error nobody expected into a failed test.
it.fails('an unexpected console.error fails the test', () => {
  console.error('something broke');
});

it('an expected one does not', () => {
  allowConsoleError(/^expected: /);
  console.error('expected: the page was refused');
  expect(true).toBe(true);
});
