import { Link } from 'react-router-dom';

export function Footer() {
  return (
    <footer className="footer">
      <p>© {new Date().getFullYear()} Bookshop. All rights reserved.</p>
      <nav aria-label="Footer">
        <Link to="/contact">Contact Us</Link>
        <Link to="/about">About</Link>
      </nav>
    </footer>
  );
}
