import { Link } from 'react-router-dom';
import { paths } from '../../../lib/paths';

/** An author's name, linking to their page (beyond the spec: every author name in the storefront does). */
export function AuthorLink({ id, name }: { id: number; name: string }) {
  return (
    <Link className="author-link" to={paths.author(id, name)}>
      {name}
    </Link>
  );
}
