import type { ReactNode } from 'react';
import { Link } from '../router.js';

export function NotFound(): ReactNode {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no page here. Go to the <Link to="/">Dashboard</Link> or the{' '}
        <Link to="/marketplace">Marketplace</Link>.
      </p>
    </>
  );
}
