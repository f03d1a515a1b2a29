// Every book has a cover URL (spec 3 lists imageUrl on every card, detail and line, and clients of the
// spec call string methods on it). A book without one gets a cover drawn here: a small SVG with its
// title and author, sent as a data URL so it needs no request, no route and no host name, and works
// for a frontend on any site. Images stay inert in <img>, and the text is XML-escaped.
import { drawnCoverColour } from '@bookshop/rules';
import { escapeMarkup, httpsUrl } from './text.ts';

export const DRAWN_COVER_PREFIX = 'data:image/svg+xml;charset=utf-8,';

/** Splits text into at most `maxLines` lines of about `width` characters, with an ellipsis when cut. */
function wrap(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : word.slice(0, width * 2);
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) return [...lines.slice(0, maxLines - 1), `${lines[maxLines - 1]}…`];
  return lines;
}

export function drawnCover(title: string, author = ''): string {
  const titleLines = wrap(title, 16, 4)
    .map((l, i) => `<tspan x="100" dy="${i ? 26 : 0}">${escapeMarkup(l)}</tspan>`)
    .join('');
  const authorLine = author
    ? `<text x="100" y="255" font-size="15" fill="#f5f5f4">${escapeMarkup(wrap(author, 24, 1)[0] ?? '')}</text>`
    : '';
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="300" viewBox="0 0 200 300" font-family="Georgia,serif" text-anchor="middle">` +
    `<rect width="200" height="300" fill="${drawnCoverColour(title)}"/>` +
    `<text x="100" y="90" font-size="21" font-weight="bold" fill="#fff">${titleLines}</text>${authorLine}</svg>`;
  return DRAWN_COVER_PREFIX + encodeURIComponent(svg);
}

/** The cover URL a client receives: the book's own image over https, or a drawn one; never null. */
export const coverUrl = (imageUrl: string | null | undefined, title: string, author?: string): string =>
  httpsUrl(imageUrl) ?? drawnCover(title, author);
