// A book's cover; when there is none, or it fails to load, a drawn cover with the title.
import { useState } from 'react';
import { https } from '../lib/format';

const PALETTE = ['#7c2d12', '#1e3a8a', '#065f46', '#581c87', '#9a3412', '#0f766e', '#831843', '#3f3f46'];
const hue = (text: string) => PALETTE[[...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % PALETTE.length];

export function BookCover({
  src,
  title,
  author,
  className = '',
}: {
  src: string | null | undefined;
  title: string;
  author?: string;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  // The API sends a drawn SVG (a data: URL) for books without an image; this draws its own in the
  // shop's style instead, as readable text.
  const url = src?.startsWith('data:image/svg+xml') ? null : https(src);
  if (!url || failed) {
    return (
      <div className={`cover cover-drawn ${className}`} style={{ background: hue(title) }} role="img" aria-label={`Cover of ${title}`}>
        <span className="cover-title">{title}</span>
        {author && <span className="cover-author">{author}</span>}
      </div>
    );
  }
  return <img className={`cover ${className}`} src={url} alt={`Cover of ${title}`} loading="lazy" onError={() => setFailed(true)} />;
}
