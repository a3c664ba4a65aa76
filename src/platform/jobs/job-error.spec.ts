import { jobErrorMessage, MAX_JOB_ERROR_CHARS, redactJobError } from './job-error';

describe('job errors', () => {
  it('reads the message of a worker failure and of a pg-boss expiry', () => {
    expect(jobErrorMessage({ message: 'refused' })).toBe('refused');
    expect(jobErrorMessage({ value: { message: 'job failed by timeout in active state' } })).toBe(
      'job failed by timeout in active state',
    );
    expect(jobErrorMessage({ value: 'plain' })).toBe('plain');
    expect(jobErrorMessage(null)).toBeNull();
    expect(jobErrorMessage({ other: 1 })).toBeNull();
  });

  it.each([
    [
      'fatal: unable to access https://git:ghp_abc123@github.com/acme/docs.git/',
      'fatal: unable to access https://[REDACTED]@github.com/acme/docs.git/',
    ],
    ['GET https://s3.test/b/k?X-Amz-Signature=abc&signature=def', 'signature=[REDACTED]'],
    ['Authorization: Bearer abc.def-ghi failed', 'Authorization: [REDACTED]'],
    ['sent with Bearer abc.def-ghi, refused', 'Bearer [REDACTED], refused'],
    [`token bnd_${'a'.repeat(43)} refused`, 'token [REDACTED] refused'],
    ['visitor eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig expired', 'visitor [REDACTED] expired'],
    ['connect failed: password=hunter2 host=db', 'password=[REDACTED] host=db'],
    ['{"secret":"s3cr3t","ok":true}', '"secret":[REDACTED]'],
    ['smtp://mailer:pa55@mail.test:587 refused', 'smtp://[REDACTED]@mail.test:587 refused'],
  ])('redacts the secret in %j', (message, expected) => {
    const redacted = redactJobError(message);
    expect(redacted).toContain(expected);
    expect(redacted).not.toMatch(/ghp_abc123|hunter2|s3cr3t|pa55|abc\.def-ghi|bnd_a|=def/);
  });

  it('leaves an ordinary message as it is and cuts a long one', () => {
    expect(redactJobError('Space abc not found')).toBe('Space abc not found');
    const long = redactJobError('x'.repeat(5000));
    expect(long).toHaveLength(MAX_JOB_ERROR_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});
