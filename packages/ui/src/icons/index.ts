// `@platform/ui/icons`: the free icon set's names, without React, for the CLI and other tools.
export { FREE_ICON_NAMES, isFreeIconName, normalizeIconName, suggestFreeIconName } from './freeIcons.js';
