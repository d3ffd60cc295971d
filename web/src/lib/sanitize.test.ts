import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize';

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
