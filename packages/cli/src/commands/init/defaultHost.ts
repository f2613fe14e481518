/** Where `npm start` in the Platform repository serves: the registry `init` writes without `--host`. */
export const DEFAULT_HOST = 'http://127.0.0.1:8787';
