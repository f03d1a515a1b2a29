// A book's cover; when there is none, or it fails to load, a drawn cover with the title.
import { drawnCoverColour } from '@bookshop/rules';
import { useState } from 'react';
import { https } from '../lib/format';

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
      <div
        className={`cover cover-drawn ${className}`}
        style={{ background: drawnCoverColour(title) }}
        role="img"
        aria-label={`Cover of ${title}`}
      >
        <span className="cover-title">{title}</span>
        {author && <span className="cover-author">{author}</span>}
      </div>
    );
  }
  return <img className={`cover ${className}`} src={url} alt={`Cover of ${title}`} loading="lazy" onError={() => setFailed(true)} />;
}
