import type { ReactNode } from 'react';
import { useSession } from '../session.js';

export function Dashboard(): ReactNode {
  const session = useSession();
  return (
    <>
      <h1>Dashboard</h1>
      {session.account === undefined && (
        <p>You are not a member of any account yet; ask an account owner to add you.</p>
      )}
    </>
  );
}
