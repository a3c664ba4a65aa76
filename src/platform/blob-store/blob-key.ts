const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,511}$/;
const MAX_SEGMENT_LENGTH = 255;

export class InvalidBlobKeyError extends Error {
  override readonly name = 'InvalidBlobKeyError';

  constructor(key: string, reason: string) {
    super(`Invalid blob key ${JSON.stringify(key.slice(0, 100))}: ${reason}`);
  }
}

/**
 * Throws an InvalidBlobKeyError unless `key` is a valid blob key: every store accepts the same
 * keys, so data can move from one to another. The rules are the filesystem's (each "/"-separated
 * part becomes a file or directory name), and they keep S3 keys plain too.
 */
export function assertValidKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new InvalidBlobKeyError(
      key,
      'keys must start with a letter or digit and contain only letters, digits, ".", "_", "-" ' +
        'and "/", at most 512 characters',
    );
  }
  const segments = key.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new InvalidBlobKeyError(key, 'empty, "." and ".." path segments are not allowed');
  }
  // Each segment becomes a file or directory name, which filesystems cap at 255 bytes.
  if (segments.some((segment) => segment.length > MAX_SEGMENT_LENGTH)) {
    throw new InvalidBlobKeyError(
      key,
      `each "/"-separated part must be at most ${MAX_SEGMENT_LENGTH} characters`,
    );
  }
}
