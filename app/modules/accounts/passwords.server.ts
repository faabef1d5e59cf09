import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's baseline parameters: 19 MiB, 2 passes, 1 lane (≈ 50 ms here). */
const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export async function hashPassword(plain: string): Promise<string> {
  return hash(plain, options);
}

/** True when `plain` matches; false for a wrong password or a hash that cannot be read. */
export async function verifyPassword(passwordHash: string, plain: string): Promise<boolean> {
  try {
    return await verify(passwordHash, plain);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * Spends the time of one verification when there is no hash to check (unknown email, account without a
 * password), so the answer's timing does not tell which accounts exist.
 */
export async function burnVerification(plain: string): Promise<void> {
  dummyHash ??= hashPassword(`kopi-dummy-${Math.random()}`);
  await verifyPassword(await dummyHash, plain);
}
