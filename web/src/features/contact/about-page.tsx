import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/document-title';
import { paths } from '../../lib/paths';

export default function AboutPage() {
  useDocumentTitle('About');
  return (
    <div className="narrow prose">
      <h1>About Bookshop</h1>
      <p>
        Bookshop is an independent online bookstore. We keep more than five thousand titles on our shelves, from fantasy sagas and detective
        classics to memoirs, philosophy, history, the life sciences and the stars above us.
      </p>
      <p>
        Our mission is simple: help every reader find their next great book, at a fair price, and get it to their door quickly. Our
        booksellers pick what we recommend, and our readers' ratings tell you what others thought.
      </p>
      <p>
        Questions, wishes or a book we should stock? <Link to={paths.contact}>Contact us</Link>.
      </p>
    </div>
  );
}
