import { describe, expect, it } from 'vitest';
import { applyHead, htmlToText, META_DESCRIPTION_MAX, metaDescription } from './head';

describe('htmlToText', () => {
  it('strips tags, decodes entities and keeps words of adjacent blocks apart', () => {
    expect(htmlToText('<p>Fast &amp; <strong>rugged</strong></p><p>Second</p><ul><li>One</li><li>Two</li></ul>')).toBe(
      'Fast & rugged Second One Two',
    );
  });

  it('never runs scripts or keeps their markup', () => {
    expect(htmlToText('<p>Safe</p><img src=x onerror="alert(1)">')).toBe('Safe');
  });
});

describe('metaDescription', () => {
  it('keeps text that fits', () => {
    expect(metaDescription('<p>A short description.</p>')).toBe('A short description.');
  });

  it('keeps text of exactly 160 characters', () => {
    const text = 'x'.repeat(META_DESCRIPTION_MAX);
    expect(metaDescription(text)).toBe(text);
  });

  it('cuts longer text at a word boundary with an ellipsis, at most 160 characters', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${String(i)}`).join(' ');
    const result = metaDescription(`<p>${words}</p>`);
    expect(Array.from(result).length).toBeLessThanOrEqual(META_DESCRIPTION_MAX);
    expect(result.endsWith('…')).toBe(true);
    expect(words.startsWith(result.slice(0, -1))).toBe(true);
    expect(result.slice(0, -1).endsWith(' ')).toBe(false);
  });

  it('cuts a single long word hard', () => {
    const result = metaDescription('y'.repeat(300));
    expect(result).toBe(`${'y'.repeat(159)}…`);
  });

  it('counts characters, not UTF-16 units', () => {
    const text = 'ā'.repeat(100) + ' ' + '😀'.repeat(59);
    expect(Array.from(text).length).toBe(160);
    expect(metaDescription(text)).toBe(text);
  });

  it('drops trailing punctuation before the ellipsis', () => {
    const text = `${'a'.repeat(120)}, ${'b'.repeat(60)}`;
    expect(metaDescription(text)).toBe(`${'a'.repeat(120)}…`);
  });
});

describe('applyHead', () => {
  const location = { origin: 'https://shop.example.nz', pathname: '/product/hhtraff' };

  it('updates tags the server wrote in place without duplicating them', () => {
    document.head.innerHTML = [
      '<title>Old</title>',
      '<meta name="description" content="old">',
      '<meta name="keywords" content="old">',
      '<meta name="robots" content="noindex">',
      '<link rel="canonical" href="https://shop.example.nz/">',
      '<meta property="og:title" content="Old">',
      '<meta name="twitter:title" content="Old">',
      '<script type="application/ld+json">{"@type":"Product"}</script>',
    ].join('');
    const description = document.head.querySelector('meta[name="description"]');

    applyHead(
      {
        title: 'HHTraff Terminal | Signalcraft',
        description: 'A terminal.',
        keywords: 'serial, terminal',
        canonical: '/product/hhtraff',
        type: 'product',
        image: '/products/hhtraff/hhtraff-screen.svg',
        price: { amount: '15.00', currency: 'NZD' },
      },
      document,
      location,
    );

    expect(document.title).toBe('HHTraff Terminal | Signalcraft');
    expect(document.head.querySelector('meta[name="description"]')).toBe(description);
    expect(document.head.querySelectorAll('meta[name="description"]')).toHaveLength(1);
    expect(description?.getAttribute('content')).toBe('A terminal.');
    expect(document.head.querySelector('meta[name="keywords"]')?.getAttribute('content')).toBe('serial, terminal');
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('index, follow');
    expect(document.head.querySelectorAll('link[rel="canonical"]')).toHaveLength(1);
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe('https://shop.example.nz/product/hhtraff');
    expect(document.head.querySelectorAll('meta[property="og:title"]')).toHaveLength(1);
    expect(document.head.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe('HHTraff Terminal | Signalcraft');
    expect(document.head.querySelector('meta[property="og:type"]')?.getAttribute('content')).toBe('product');
    expect(document.head.querySelector('meta[property="og:url"]')?.getAttribute('content')).toBe('https://shop.example.nz/product/hhtraff');
    expect(document.head.querySelector('meta[property="og:image"]')?.getAttribute('content')).toBe(
      'https://shop.example.nz/products/hhtraff/hhtraff-screen.svg',
    );
    expect(document.head.querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe('summary_large_image');
    expect(document.head.querySelectorAll('meta[name="twitter:title"]')).toHaveLength(1);
    expect(document.head.querySelector('meta[property="product:price:amount"]')?.getAttribute('content')).toBe('15.00');
    expect(document.head.querySelector('meta[property="product:price:currency"]')?.getAttribute('content')).toBe('NZD');
    expect(document.head.querySelector('script[type="application/ld+json"]')).toBeNull();
  });

  it('creates missing tags and removes ones the new page does not have', () => {
    document.head.innerHTML =
      '<meta name="keywords" content="old"><meta property="og:image" content="x"><meta property="product:price:amount" content="129.00">';
    applyHead({ title: 'Terms and Conditions | Signalcraft', robots: 'index, follow' }, document, { ...location, pathname: '/terms' });
    expect(document.head.querySelector('meta[name="keywords"]')).toBeNull();
    expect(document.head.querySelector('meta[property="og:image"]')).toBeNull();
    expect(document.head.querySelector('meta[property="product:price:amount"]')).toBeNull();
    expect(document.head.querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe('summary');
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe('https://shop.example.nz/terms');
    const count = document.head.querySelectorAll('meta, link').length;
    applyHead({ title: 'Again', robots: 'noindex' }, document, location);
    expect(document.head.querySelectorAll('meta, link')).toHaveLength(count);
    expect(document.head.querySelectorAll('meta[name="robots"]')).toHaveLength(1);
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
  });
});
