/**
 * `@platform/sdk/server`: the Node-only building blocks the host and the local harness share: the
 * egress-checked fetch and the OAuth loop's pieces that hold no database. The rest of the sdk stays
 * free of Node; this entry alone may import `node:*`, undici and ipaddr.js.
 * @packageDocumentation
 */

export { unmappedAddress } from './egress/_addressPolicy.js';
export { createEgressFetch, type EgressFetchOptions } from './egress/createEgressFetch.js';
export type { EgressFetch, ResolvedAddress } from './egress/EgressFetch.js';
export { buildAuthorizationUrl } from './oauth/buildAuthorizationUrl.js';
export type { ClientCredentials } from './oauth/ClientCredentials.js';
export { asOAuthFailure, authorizationCode } from './oauth/callbackAnswer.js';
export { createPkcePair, type PkcePair, pkceChallenge } from './oauth/createPkcePair.js';
export { exchangeCode } from './oauth/exchangeCode.js';
export { isSameOriginPath } from './oauth/isSameOriginPath.js';
export { type OAuthErrorCode, OAuthFailure } from './oauth/OAuthFailure.js';
export { providerErrorCode } from './oauth/providerErrorCode.js';
export { refreshTokens, TokenRefreshError } from './oauth/refreshTokens.js';
export { returnLocation } from './oauth/returnLocation.js';
export { toTokens } from './oauth/toTokens.js';
