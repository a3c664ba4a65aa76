import { statusAfterCheck, verificationRecordName, verificationValue } from './hostname-dns';

describe('statusAfterCheck', () => {
  it('keeps a live hostname live when the DNS servers did not answer, and only then', () => {
    expect(statusAfterCheck('live', 'internal_error')).toBe('live');
    expect(statusAfterCheck('live', 'dns_wrong_cname')).toBe('dns_wrong_cname');
    expect(statusAfterCheck('live', 'dns_no_cname')).toBe('dns_no_cname');
    expect(statusAfterCheck('dns_no_cname', 'internal_error')).toBe('internal_error');
    expect(statusAfterCheck(null, 'internal_error')).toBe('internal_error');
    expect(statusAfterCheck(null, 'live')).toBe('live');
  });

  it('names the TXT record and its value', () => {
    expect(verificationRecordName('docs.example.com')).toBe('_bindery.docs.example.com');
    expect(verificationValue('S1')).toBe('bindery-site=S1');
  });
});
