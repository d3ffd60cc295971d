import { describe, expect, it } from 'vitest';
import { safeHref, sanitizeHtml } from './sanitize';

describe('sanitizeHtml', () => {
  it('removes scripts, event handlers and javascript: links', () => {
    const clean = sanitizeHtml('<p onclick="x()">Hi<script>alert(1)</script><a href="javascript:alert(1)">x</a><img src="x" onerror="y()"></p>');
    expect(clean).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(clean).toContain('Hi');
  });

  it('removes inline styles, which the CSP would block', () => {
    expect(sanitizeHtml('<p style="color:red">Red</p><style>p{}</style>')).toBe('<p>Red</p>');
  });

  it('keeps editor formatting and opens external links in a new tab', () => {
    const clean = sanitizeHtml('<h2>T</h2><ol><li><strong>a</strong></li></ol><p class="ql-align-center"><a href="https://example.com">e</a></p>');
    expect(clean).toContain('<h2>T</h2>');
    expect(clean).toContain('<strong>a</strong>');
    expect(clean).toContain('class="ql-align-center"');
    expect(clean).toContain('target="_blank"');
    expect(clean).toContain('rel="noopener noreferrer"');
  });
});

describe('sanitizeHtml: the allowlist of the server (html_sanitizer.h)', () => {
  it('drops SVG, MathML, forms and media with their content, and unwraps unknown elements', () => {
    expect(sanitizeHtml('<p>a<svg><a href="https://x">s</a></svg><math><mi>m</mi></math>b</p>')).toBe('<p>ab</p>');
    expect(sanitizeHtml('<form><input value="v"><button>go</button></form><p>k</p>')).toBe('<p>k</p>');
    expect(sanitizeHtml('<div><span class="x">text</span><table><tr><td>cell</td></tr></table></div>')).toBe('textcell');
    expect(sanitizeHtml('<p>x<!-- comment --><template><b>t</b></template><noscript>n</noscript></p>')).toBe('<p>x</p>');
  });

  it('keeps http, https, mailto and relative links, and unwraps any other scheme', () => {
    expect(sanitizeHtml('<a href="mailto:a@b.nz">m</a>')).toBe('<a href="mailto:a@b.nz" rel="noopener noreferrer">m</a>');
    expect(sanitizeHtml('<a href="/terms">t</a>')).toBe('<a href="/terms" rel="noopener noreferrer">t</a>');
    for (const href of ['javascript:alert(1)', ' java\tscript:alert(1)', 'JaVaScRiPt:x', 'data:text/html,x', 'vbscript:x', '']) {
      expect(sanitizeHtml(`<a href="${href}">x</a>`)).toBe('x');
    }
    expect(sanitizeHtml('<a href="java&#x09;script:alert(1)">x</a>')).toBe('x');
  });

  it('keeps only the editor list styles and ql- classes, and no other attribute', () => {
    expect(sanitizeHtml('<ol><li data-list="bullet" id="i" title="t">a</li><li data-list="evil">b</li></ol>')).toBe(
      '<ol><li data-list="bullet">a</li><li>b</li></ol>',
    );
    expect(sanitizeHtml('<p class="ql-indent-1 fixed inset-0">p</p>')).toBe('<p class="ql-indent-1">p</p>');
  });

  it('escapes text, so markup in text stays text', () => {
    expect(sanitizeHtml('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });
});

describe('safeHref', () => {
  it('follows the URL parser: trims controls, drops tabs and newlines, rejects other controls', () => {
    expect(safeHref('  https://example.com/a  ')).toBe('https://example.com/a');
    expect(safeHref('ht\ntp://x')).toBe('http://x');
    expect(safeHref('/a\u0001b')).toBeNull();
    expect(safeHref('?q=1')).toBe('?q=1');
    expect(safeHref('#top')).toBe('#top');
    expect(safeHref('a/b:c')).toBe('a/b:c');
  });
});
