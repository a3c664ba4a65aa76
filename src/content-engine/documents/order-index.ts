const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The `orderIndex` of the n-th table record (0-based): keys in the shape of the
 * fractional-indexing scheme GitBook uses ("a0", "a1", … "az", "b10", …), which sort by
 * plain string comparison, so records can later be inserted between two others.
 */
export function orderIndex(n: number): string {
  let width = 1;
  let capacity = DIGITS.length;
  let rest = n;
  while (rest >= capacity) {
    rest -= capacity;
    width++;
    capacity = DIGITS.length ** width;
  }
  let digits = '';
  for (let i = 0; i < width; i++) {
    digits = DIGITS[rest % DIGITS.length] + digits;
    rest = Math.floor(rest / DIGITS.length);
  }
  return String.fromCharCode('a'.charCodeAt(0) + width - 1) + digits;
}

/** Compares order indexes as GitBook does: by code units, not by locale. */
export function compareOrderIndex(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
