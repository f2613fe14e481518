import { type RichTranslationValues, useTranslations } from 'next-intl';
import type { ReactNode } from 'react';

export interface TranslateProps {
  /** The message key, relative to `namespace` when one is given (`'empty'`, or `'notes.empty'`). */
  readonly id: string;
  readonly namespace?: string;
  /** ICU arguments; a function value renders a rich-text tag (`{ b: (chunks) => <b>{chunks}</b> }`). */
  readonly values?: RichTranslationValues;
}

/** Thrown by `Translate` when no `NextIntlClientProvider` is mounted above it. */
export class TranslationProviderMissingError extends Error {
  override readonly name = 'TranslationProviderMissingError';
  readonly code = 'TRANSLATION_PROVIDER_MISSING';

  constructor(id: string, cause: unknown) {
    super(
      `<Translate id="${id}"> needs a NextIntlClientProvider from next-intl above it, and none was found. The host and the harness mount one; elsewhere (your own pages, component tests) wrap the tree in <NextIntlClientProvider locale="en" messages={messages}>.`,
      { cause },
    );
  }
}

/**
 * A message from the nearest `NextIntlClientProvider` (next-intl's root import, so the host's
 * provider serves it). Throws `TranslationProviderMissingError` when no provider is mounted.
 * @example <Translate namespace="notes" id="count" values={{ count: notes.length }} />
 */
export function Translate({ id, namespace, values }: TranslateProps): ReactNode {
  let t: ReturnType<typeof useTranslations>;
  try {
    // biome-ignore lint/correctness/useHookAtTopLevel: called on every render; the try only rewords next-intl's missing-provider error
    t = useTranslations(namespace);
  } catch (cause) {
    throw new TranslationProviderMissingError(namespace === undefined ? id : `${namespace}.${id}`, cause);
  }
  const rich = values !== undefined && Object.values(values).some((value) => typeof value === 'function');
  return rich ? t.rich(id, values) : t(id, values as Parameters<typeof t>[1]);
}
