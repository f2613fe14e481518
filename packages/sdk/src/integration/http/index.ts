export { createVendorClient } from './createVendorClient.js';
export type {
  VendorClient,
  VendorClientContext,
  VendorClientOptions,
  VendorCursorPagination,
  VendorLinkPagination,
  VendorMethod,
  VendorPagePagination,
  VendorPaginateOptions,
  VendorQuery,
  VendorRequestOptions,
  VendorRetryOptions,
} from './types.js';
export { isVendorHttpError, VendorHttpError, type VendorHttpErrorInit } from './VendorHttpError.js';
