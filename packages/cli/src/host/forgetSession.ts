import { readHosts, writeHosts } from './sessionStore.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Removes the stored session of `origin`; the current host moves to another signed-in host (the
 * first left), or none.
 */
export function forgetSession(env: Env, origin: string): void {
  const file = readHosts(env);
  const { [origin]: _gone, ...hosts } = file.hosts;
  const current = file.current === origin ? Object.keys(hosts)[0] : file.current;
  writeHosts(env, current === undefined ? { hosts } : { current, hosts });
}
