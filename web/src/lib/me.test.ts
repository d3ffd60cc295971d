import { describe, expect, it } from 'vitest';
import { readMe } from './me';

const ME = {
  id: 'u1',
  email: 'tech@example.co.nz',
  full_name: null,
  roles: ['admin'],
  aal: 'aal2',
  factors: [{ id: 'f1', friendly_name: 'Signalcraft', factor_type: 'totp', status: 'verified' }],
  enterprise: { id: 'a1', name: 'Harbour Traffic Systems Ltd', role: 'member' },
  pending_email: null,
};

describe('readMe', () => {
  it('takes the documented answer', () => {
    expect(readMe(ME)).toEqual(ME);
    expect(readMe({ ...ME, enterprise: null })?.enterprise).toBeNull();
  });

  it.each([
    ['no id', { ...ME, id: undefined }],
    ['roles not a list of text', { ...ME, roles: [1] }],
    ['a factor without an id', { ...ME, factors: [{ friendly_name: 'x', status: 'verified' }] }],
    ['enterprise without a role', { ...ME, enterprise: { id: 'a1', name: 'x' } }],
    ['enterprise missing', { ...ME, enterprise: undefined }],
    ['not an object', 'me'],
  ])('refuses an answer with %s', (_label, body) => {
    expect(readMe(body)).toBeNull();
  });
});
