// The web APIs the prelude takes from core-js-pure (ponyfills: nothing is installed on globalThis
// here; index.ts defines the globals). Their types: _coreJsPure.d.ts.
import atob from 'core-js-pure/actual/atob.js';
import btoa from 'core-js-pure/actual/btoa.js';
import DOMException from 'core-js-pure/actual/dom-exception/index.js';
import URL from 'core-js-pure/actual/url/index.js';
import URLSearchParams from 'core-js-pure/actual/url-search-params/index.js';

// core-js keeps its internal store on `globalThis['__core-js_shared__']`; the modules above hold it
// already, so the global goes before partner code runs (it would be one more global to see).
delete (globalThis as { '__core-js_shared__'?: unknown })['__core-js_shared__'];

export { atob, btoa, DOMException, URL, URLSearchParams };
