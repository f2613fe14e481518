// The core-js-pure modules coreJs.ts imports (core-js-pure ships no types), typed as far as the
// prelude uses them: partner code sees the full ponyfills, whose types are not the prelude's concern.

declare module 'core-js-pure/actual/atob.js' {
  const atob: (data: string) => string;
  export default atob;
}

declare module 'core-js-pure/actual/btoa.js' {
  const btoa: (data: string) => string;
  export default btoa;
}

declare module 'core-js-pure/actual/dom-exception/index.js' {
  class DOMException extends Error {
    constructor(message?: string, name?: string);
    readonly code: number;
  }
  export default DOMException;
}

declare module 'core-js-pure/actual/url/index.js' {
  class URL {
    constructor(url: string, base?: string);
    readonly href: string;
  }
  export default URL;
}

declare module 'core-js-pure/actual/url-search-params/index.js' {
  class URLSearchParams {
    constructor(init?: string | Record<string, string> | Iterable<readonly [string, string]>);
    toString(): string;
  }
  export default URLSearchParams;
}
