import { Translate } from '@platform/ui';
import { describe, it } from 'vitest';

describe('Translate props', () => {
  it('has no i18n prop: the translations come from next-intl’s provider', () => {
    <Translate id="title" />;
    // @ts-expect-error the i18n prop was removed in 0.4.0
    <Translate id="title" i18n={{}} />;
    // @ts-expect-error a message key is required
    <Translate />;
  });
});
