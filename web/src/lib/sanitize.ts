// Rich text is sanitised by the server when stored (server/src/catalog/html_sanitizer.h) and again
// here before it is rendered, with the same allowlist: the admin editor's formatting and nothing
// else. This is an allowlist rebuild, not a filter: the fragment is parsed in an inert document
// (DOMParser runs no script and loads nothing), and a new tree is built from scratch out of the
// allowed elements, the allowed attributes and text; everything else is unwrapped (its text kept)
// or dropped with its content. A few hundred bytes instead of a general-purpose sanitiser on every
// product page (docs/performance.md).

const XHTML = 'http://www.w3.org/1999/xhtml';

/** Kept, with only the attributes named in copyAttributes. */
const KEEP = new Set(['H1', 'H2', 'H3', 'P', 'BR', 'STRONG', 'B', 'EM', 'I', 'U', 'S', 'STRIKE', 'OL', 'UL', 'LI', 'A']);

/** Dropped with everything inside: executable, embedding or document-level elements, forms, media. */
const DROP = new Set([
  'SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'APPLET', 'PARAM', 'TEMPLATE', 'NOSCRIPT', 'NOEMBED',
  'NOFRAMES', 'FRAME', 'FRAMESET', 'HEAD', 'TITLE', 'BASE', 'LINK', 'META', 'FORM', 'INPUT', 'BUTTON',
  'SELECT', 'DATALIST', 'OPTGROUP', 'OPTION', 'TEXTAREA', 'KEYGEN', 'OUTPUT', 'PROGRESS', 'METER',
  'MENUITEM', 'IMG', 'IMAGE', 'VIDEO', 'AUDIO', 'SOURCE', 'TRACK', 'CANVAS', 'MAP', 'AREA', 'BGSOUND', 'HR',
  'WBR', 'COL', 'COLGROUP', 'XMP', 'PLAINTEXT',
]);

const LIST_STYLES = new Set(['bullet', 'ordered', 'checked', 'unchecked']);

/**
 * The href a browser would follow, when it is one we allow (as the server's safeHref): http, https,
 * mailto or a relative URL. Leading and trailing controls and spaces are ignored and tabs and
 * newlines removed, as the URL parser does ("java\tscript:" is "javascript:").
 */
export function safeHref(raw: string): string | null {
  let begin = 0;
  let end = raw.length;
  while (begin < end && raw.charCodeAt(begin) <= 0x20) begin += 1;
  while (end > begin && raw.charCodeAt(end - 1) <= 0x20) end -= 1;
  let url = '';
  for (const char of raw.slice(begin, end)) {
    if (char === '\t' || char === '\n' || char === '\r') continue;
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return null;
    url += char;
  }
  if (!url) return null;
  const colon = url.indexOf(':');
  const delimiter = url.search(/[/?#]/);
  if (colon !== -1 && (delimiter === -1 || colon < delimiter)) {
    return /^(https?|mailto)$/i.test(url.slice(0, colon)) ? url : null;
  }
  return url;
}

/** Copies the allowed attributes of `from` to `to`; false when an <a> has no safe href (unwrap it). */
function copyAttributes(from: Element, to: Element): boolean {
  if (from.tagName === 'A') {
    const href = safeHref(from.getAttribute('href') ?? '');
    if (href === null) return false;
    to.setAttribute('href', href);
    // External links in product copy open in a new tab without handing over window.opener.
    if (/^https?:/i.test(href)) to.setAttribute('target', '_blank');
    to.setAttribute('rel', 'noopener noreferrer');
  }
  const listStyle = from.getAttribute('data-list');
  if (from.tagName === 'LI' && listStyle && LIST_STYLES.has(listStyle)) to.setAttribute('data-list', listStyle);
  // The editor's own alignment and indent classes (ql-*) only: nothing can borrow the app's styles.
  const classes = (from.getAttribute('class') ?? '').split(/\s+/).filter((name) => /^ql-[a-z0-9-]+$/.test(name));
  if (classes.length > 0) to.setAttribute('class', classes.join(' '));
  return true;
}

function rebuild(source: Node, target: Node, doc: Document): void {
  for (const child of Array.from(source.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(doc.createTextNode(child.nodeValue ?? ''));
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue; // comments, processing instructions
    const element = child as Element;
    // SVG, MathML and anything else outside HTML: never read, never rendered.
    if (element.namespaceURI !== XHTML || DROP.has(element.tagName)) continue;
    if (KEEP.has(element.tagName)) {
      const copy = doc.createElement(element.tagName.toLowerCase());
      if (copyAttributes(element, copy)) {
        rebuild(element, copy, doc);
        target.appendChild(copy);
        continue;
      }
    }
    rebuild(element, target, doc); // unwrapped: its content stays, the element goes
  }
}

/**
 * Sanitises an HTML fragment for rendering: the allowlist above, no style attributes or elements
 * (the Content-Security-Policy, style-src 'self', would block them anyway), no event handlers.
 */
export function sanitizeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const out = doc.createElement('div');
  rebuild(doc.body, out, doc);
  return out.innerHTML;
}
