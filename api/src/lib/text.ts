import { normalizeForSearch } from '@bookshop/rules/browse';

export const bookSearchText = (title: string, authorName: string) => normalizeForSearch(`${title} ${authorName}`);

// &#39;, not &apos;: the one HTML 4 knows too, which old mail clients read e-mail by.
const MARKUP_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside XML or HTML, in element content or a quoted attribute (drawn covers, book pages, sitemaps, e-mails). */
export const escapeMarkup = (text: string) => text.replace(/[&<>"']/g, (c) => MARKUP_ESCAPES[c]!);

/** Image URLs go out as https (spec 9). */
export const httpsUrl = (url: string | null | undefined): string | null => (url ? url.replace(/^http:\/\//i, 'https://') : null);

/**
 * Escapes LIKE/ILIKE's wildcards (`%`, `_`) and its escape character (`\`), so a pattern built from
 * user text matches that text literally. Prisma's `contains` and insensitive `equals` compile to
 * ILIKE without escaping, so a `%` matched everything and a trailing `\` was an SQL error (22025).
 */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
