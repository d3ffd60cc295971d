// RFC 6238 time-based one-time passwords as authenticator apps compute them (HMAC-SHA1, 6 digits,
// 30-second steps, base32 secret), so that the specs can pass two-factor steps. The server accepts
// a code once, so a second code must come from a later time step: see freshCode().
import { createHmac } from 'node:crypto';

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (case, spaces and '=' padding ignored). */
export function base32Decode(input: string): Buffer {
  const clean = input.toUpperCase().replace(/[\s=]/g, '');
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index < 0) throw new Error(`not a base32 character: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226 HOTP: HMAC-SHA1 of the 8-byte big-endian counter, dynamically truncated. */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', key).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary =
    ((digest[offset]! & 0x7f) << 24) | (digest[offset + 1]! << 16) | (digest[offset + 2]! << 8) | digest[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step of `timeMs` (milliseconds since the epoch). */
export function totpStep(timeMs = Date.now()): number {
  return Math.floor(timeMs / 1000 / TOTP_STEP_SECONDS);
}

/** The code of `secret` (base32) for time step `step`. */
export function totpForStep(secret: string, step: number): string {
  return hotp(base32Decode(secret), step);
}

/** The code of `secret` at `timeMs`. */
export function totp(secret: string, timeMs = Date.now()): string {
  return totpForStep(secret, totpStep(timeMs));
}

/**
 * A code the server has not seen: from a time step after `usedStep`. The server accepts a code one
 * step either side of its clock (server/src/auth/totp.h) and only from a step newer than the last
 * one used, so the next step's code serves at once when this step's is used or about to end; only
 * a code wanted two steps ahead waits (for the next step to begin). `marginMs`: a current step
 * with less left than this gives way to the next one.
 */
export async function freshCode(secret: string, usedStep = -1, marginMs = 3_000): Promise<{ code: string; step: number }> {
  for (;;) {
    const now = Date.now();
    const step = totpStep(now);
    const msLeft = (step + 1) * TOTP_STEP_SECONDS * 1000 - now;
    if (step > usedStep && msLeft > marginMs) return { code: totpForStep(secret, step), step };
    if (step + 1 > usedStep) return { code: totpForStep(secret, step + 1), step: step + 1 };
    await new Promise((resolve) => setTimeout(resolve, msLeft + 50));
  }
}

/** A 6-digit code that is wrong for every step near now (servers may accept a step either side). */
export function wrongCode(secret: string, timeMs = Date.now()): string {
  const step = totpStep(timeMs);
  const near = new Set([-2, -1, 0, 1, 2].map((delta) => totpForStep(secret, step + delta)));
  for (let candidate = 0; ; candidate++) {
    const code = String(candidate).padStart(TOTP_DIGITS, '0');
    if (!near.has(code)) return code;
  }
}
