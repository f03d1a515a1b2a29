import { Link } from 'react-router-dom';
import { paths } from '../../lib/paths';

export function Footer() {
  return (
    <footer className="footer">
      <p>© {new Date().getFullYear()} Bookshop. All rights reserved.</p>
      <nav aria-label="Footer">
        <Link to={paths.contact}>Contact Us</Link>
        <Link to={paths.about}>About</Link>
      </nav>
    </footer>
  );
}
