// Keeps <head> in step with client-side navigation. On the first load of `/` and
// `/product/{slug}` the server has already written the real tags (docs/architecture.md); after
// that, each page describes itself here and the existing tags are updated in place, found by
// name/property, never duplicated.
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { COMPANY_NAME } from './company';

export const SITE_NAME = COMPANY_NAME;
export const META_DESCRIPTION_MAX = 160;

export interface HeadTags {
  title: string;
  /** Plain text, at most 160 characters (see metaDescription). */
  description?: string | null;
  keywords?: string | null;
  robots?: string;
  /** Path (or absolute URL) of the canonical page; defaults to the current path. */
  canonical?: string;
  type?: 'website' | 'product';
  /** Path or absolute URL of the sharing image. */
  image?: string | null;
  /** A product's price for product:price:* tags, e.g. {amount: '129.00', currency: 'NZD'}. */
  price?: { amount: string; currency: string } | null;
}

const BLOCK_END = /<\/(p|div|li|h[1-6]|ul|ol|blockquote|pre|tr|td|th|table|section|article)\s*>|<br\s*\/?>/gi;

/** The readable text of an HTML fragment, whitespace collapsed. Parsing never runs scripts. */
export function htmlToText(html: string): string {
  const spaced = html.replace(BLOCK_END, (tag) => `${tag} `);
  const doc = new DOMParser().parseFromString(spaced, 'text/html');
  return doc.body.textContent.replace(/\s+/g, ' ').trim();
}

/**
 * A meta description from rich text: plain text, at most `max` characters (code points). Longer
 * text is cut at a word boundary where one is near and ends with an ellipsis.
 */
export function metaDescription(html: string, max = META_DESCRIPTION_MAX): string {
  const chars = Array.from(htmlToText(html));
  if (chars.length <= max) return chars.join('');
  let cut = chars.slice(0, max - 1).join('');
  const lastSpace = cut.lastIndexOf(' ');
  if (lastSpace >= Math.floor(max * 0.6)) cut = cut.slice(0, lastSpace);
  return `${cut.replace(/[\s,;:.!?\-–—]+$/u, '')}…`;
}

function absoluteUrl(pathOrUrl: string, origin: string): string {
  try {
    return new URL(pathOrUrl, origin).href;
  } catch {
    return pathOrUrl;
  }
}

function setMeta(doc: Document, attribute: 'name' | 'property', key: string, content: string | null | undefined): void {
  const existing = Array.from(doc.head.querySelectorAll<HTMLMetaElement>(`meta[${attribute}]`)).filter(
    (element) => element.getAttribute(attribute) === key,
  );
  const [first, ...duplicates] = existing;
  for (const duplicate of duplicates) duplicate.remove();
  if (content === null || content === undefined || content === '') {
    first?.remove();
    return;
  }
  const element = first ?? doc.createElement('meta');
  if (!first) {
    element.setAttribute(attribute, key);
    doc.head.appendChild(element);
  }
  element.setAttribute('content', content);
}

function setCanonical(doc: Document, href: string): void {
  const links = Array.from(doc.head.querySelectorAll<HTMLLinkElement>('link[rel="canonical"]'));
  const [first, ...duplicates] = links;
  for (const duplicate of duplicates) duplicate.remove();
  const link = first ?? doc.createElement('link');
  if (!first) {
    link.setAttribute('rel', 'canonical');
    doc.head.appendChild(link);
  }
  link.setAttribute('href', href);
}

/** Writes `tags` into `doc`'s head, updating existing tags in place. */
export function applyHead(tags: HeadTags, doc: Document = document, location: Pick<Location, 'origin' | 'pathname'> = window.location): void {
  const canonical = absoluteUrl(tags.canonical ?? location.pathname, location.origin);
  const image = tags.image ? absoluteUrl(tags.image, location.origin) : null;
  const description = tags.description ?? null;

  doc.title = tags.title;
  setMeta(doc, 'name', 'description', description);
  setMeta(doc, 'name', 'keywords', tags.keywords ?? null);
  setMeta(doc, 'name', 'robots', tags.robots ?? 'index, follow');
  setCanonical(doc, canonical);

  setMeta(doc, 'property', 'og:site_name', SITE_NAME);
  setMeta(doc, 'property', 'og:locale', 'en_NZ');
  setMeta(doc, 'property', 'og:type', tags.type ?? 'website');
  setMeta(doc, 'property', 'og:title', tags.title);
  setMeta(doc, 'property', 'og:description', description);
  setMeta(doc, 'property', 'og:url', canonical);
  setMeta(doc, 'property', 'og:image', image);

  setMeta(doc, 'name', 'twitter:card', image ? 'summary_large_image' : 'summary');
  setMeta(doc, 'name', 'twitter:title', tags.title);
  setMeta(doc, 'name', 'twitter:description', description);
  setMeta(doc, 'name', 'twitter:image', image);

  setMeta(doc, 'property', 'product:price:amount', tags.price?.amount ?? null);
  setMeta(doc, 'property', 'product:price:currency', tags.price?.currency ?? null);

  // Structured data is written by the server for the first page only; after navigating away it
  // would describe the wrong page.
  for (const script of doc.head.querySelectorAll('script[type="application/ld+json"]')) script.remove();
}

// The path whose head the server rendered, while the visitor is still on it.
let serverRenderedPath: string | null = null;

/** Called once at start-up when the server wrote the head of the current page. */
export function markServerRenderedHead(pathname: string | null): void {
  serverRenderedPath = pathname;
}

/**
 * Applies `tags` for the current route (pass null while they are not known yet). The first view
 * of a server-rendered page is left as the server wrote it.
 */
export function useDocumentHead(tags: HeadTags | null): void {
  const { pathname } = useLocation();
  const key = tags ? JSON.stringify(tags) : null;
  useEffect(() => {
    if (key === null) return;
    if (serverRenderedPath !== null && serverRenderedPath === pathname) return;
    serverRenderedPath = null;
    applyHead(JSON.parse(key) as HeadTags);
  }, [key, pathname]);
}
