import { CliError } from '../cli/CliError.js';

/**
 * The origin of a host given on the command line; sessions are kept per origin.
 * @example parseHostUrl('https://platform.example.com/') // 'https://platform.example.com'
 */
export function parseHostUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw hostUrlError(input);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw hostUrlError(input);
  return url.origin;
}

function hostUrlError(input: string): CliError {
  return new CliError('usage', `"${input}" is not an http(s) URL of a Platform host.`, {
    hint: 'Pass the host with its scheme, for example `--host https://platform.example.com` or `--host http://127.0.0.1:8787`.',
  });
}
