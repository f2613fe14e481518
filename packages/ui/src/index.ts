export { Translate, type TranslateProps, TranslationProviderMissingError } from './i18n/Translate.js';
export { Icon, type IconDefinition, type IconProps } from './icons/Icon.js';
export {
  OAuthActivationForm,
  type OAuthActivationFormLabels,
  type OAuthActivationFormProps,
} from './oauth/OAuthActivationForm.js';
export type { ActivationFormProps, MarketplaceTileProps } from './registryProps.js';
export { DEFAULT_WIDGET_LABELS, type WidgetLabels } from './widget/labels.js';
export { Widget, type WidgetChromeProps, type WidgetProps } from './widget/Widget.js';
export type { WidgetBodyProps } from './widget/WidgetBody.js';
export type { WidgetDataStateProps } from './widget/WidgetDataState.js';
export type { WidgetHeaderProps } from './widget/WidgetHeader.js';
export type { WidgetHealth, WidgetHealthFooterProps } from './widget/WidgetHealthFooter.js';
export type { WidgetMenuItemProps } from './widget/WidgetMenuItem.js';
