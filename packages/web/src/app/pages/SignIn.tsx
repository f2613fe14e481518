import type { SignedInResponse } from '@platform/wire';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError, api } from '../api.js';
import { navigate, safeNext, useLocation } from '../router.js';

/**
 * `/sign-in`: email and password, then the authenticator code for a user with TOTP. A wrong
 * password shows an alert and starts no session; the host rate limits the attempts and its answer
 * says when to try again. Success goes to `?next=` (a path of this origin only).
 */
export function SignIn(props: { codeDue: boolean }): ReactNode {
  const queryClient = useQueryClient();
  const location = useLocation();
  const [step, setStep] = useState<'password' | 'code'>(props.codeDue ? 'code' : 'password');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (step === 'code') codeInput.current?.focus();
  }, [step]);

  async function done() {
    await queryClient.invalidateQueries({ queryKey: ['me'] });
    navigate(safeNext(location.searchParams.get('next')), { replace: true });
  }

  async function submit(
    event: FormEvent<HTMLFormElement>,
    send: (form: FormData) => Promise<SignedInResponse>,
  ) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      const answer = await send(form);
      if (answer.mfa_pending) setStep('code');
      else await done();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.text : 'Signing in failed; try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="app-narrow" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Platform</h1>
      {error !== undefined && (
        <p role="alert" className="app-error">
          {error}
        </p>
      )}
      {step === 'password' ? (
        <form
          onSubmit={(event) =>
            submit(event, (form) =>
              api<SignedInResponse>('POST', '/api/platform/sign-in', {
                email: String(form.get('email') ?? ''),
                password: String(form.get('password') ?? ''),
              }),
            )
          }
        >
          <label htmlFor="email">Email</label>
          <input id="email" name="email" type="email" autoComplete="username" required />
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
          <button type="submit" disabled={busy}>
            Sign in
          </button>
        </form>
      ) : (
        <form
          onSubmit={(event) =>
            submit(event, (form) =>
              api<SignedInResponse>('POST', '/api/platform/mfa/verify', {
                code: String(form.get('code') ?? ''),
              }),
            )
          }
        >
          <p>Enter the 6-digit code from your authenticator app.</p>
          <label htmlFor="code">Code</label>
          <input
            id="code"
            name="code"
            ref={codeInput}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            required
          />
          <button type="submit" disabled={busy}>
            Verify
          </button>
        </form>
      )}
    </main>
  );
}
