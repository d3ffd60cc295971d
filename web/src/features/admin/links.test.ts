import { describe, expect, it } from 'vitest';
import { auditTargetPath, customerPath, orderPath, trackingUrl } from './links';

describe('trackingUrl', () => {
  it.each([
    ['NZ Post', 'https://www.nzpost.co.nz/tools/tracking?trackid=AB123'],
    ['nz post', 'https://www.nzpost.co.nz/tools/tracking?trackid=AB123'],
    ['CourierPost', 'https://trackandtrace.courierpost.co.nz/search/AB123'],
    ['ARAMEX', 'https://www.aramex.co.nz/tools/track?l=AB123'],
    ['DHL', 'https://www.dhl.com/nz-en/home/tracking/tracking-express.html?submit=1&tracking-id=AB123'],
    ['Australia Post', 'https://auspost.com.au/mypost/track/details/AB123'],
    ['  australia   post ', 'https://auspost.com.au/mypost/track/details/AB123'],
  ])('links %s', (carrier, url) => {
    expect(trackingUrl(carrier, 'AB123')).toBe(url);
  });

  it('URL-encodes the number', () => {
    expect(trackingUrl('NZ Post', 'AB 1/2&x=?')).toBe('https://www.nzpost.co.nz/tools/tracking?trackid=AB%201%2F2%26x%3D%3F');
  });

  it('has no link for an unknown carrier or without a number', () => {
    expect(trackingUrl('Pigeon Express', 'AB123')).toBeNull();
    expect(trackingUrl(null, 'AB123')).toBeNull();
    expect(trackingUrl('DHL', '  ')).toBeNull();
    expect(trackingUrl('DHL', null)).toBeNull();
  });
});

describe('staff paths', () => {
  it('encodes ids', () => {
    expect(orderPath('a/b')).toBe('/admin/orders/a%2Fb');
    expect(customerPath('u 1')).toBe('/admin/customers/u%201');
  });

  it('leads an audit target to its page, or nowhere', () => {
    expect(auditTargetPath('order', 'o1')).toBe('/admin/orders/o1');
    expect(auditTargetPath('user', 'u1')).toBe('/admin/customers/u1');
    expect(auditTargetPath('product', 'p1')).toBe('/admin/products');
    expect(auditTargetPath('enterprise_account', 'e1')).toBe('/admin/enterprise');
    expect(auditTargetPath('session', 's1')).toBeNull();
  });
});
