import { Hono } from 'hono';

type IconPack = Record<
  string,
  { iconName: string; icon: [number, number, (string | number)[], string, string | string[]] }
>;

let icons: Promise<Map<string, string>> | undefined;

/** Every free icon (solid first, then regular, then brands; aliases included) as an SVG document. */
function loadIcons(): Promise<Map<string, string>> {
  icons ??= (async () => {
    const [solid, regular, brands] = await Promise.all([
      import('@fortawesome/free-solid-svg-icons'),
      import('@fortawesome/free-regular-svg-icons'),
      import('@fortawesome/free-brands-svg-icons'),
    ]);
    const byName = new Map<string, string>();
    for (const pack of [solid.fas, regular.far, brands.fab] as unknown as IconPack[]) {
      for (const definition of Object.values(pack)) {
        const [width, height, aliases, , path] = definition.icon;
        const paths = (typeof path === 'string' ? [path] : path).map((d) => `<path d="${d}"/>`).join('');
        const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" fill="#5c6370">${paths}</svg>`;
        for (const name of [definition.iconName, ...aliases.filter((alias) => typeof alias === 'string')]) {
          if (!byName.has(String(name))) byName.set(String(name), svg);
        }
      }
    }
    return byName;
  })();
  return icons;
}

/**
 * `GET /web/icons/<name>.svg`: a listing's icon (a name of the free icon set, as `platform.json`'s
 * `icon` gives it, a bare name such as `note-sticky`) as an SVG image of this origin, so the marketplace draws any icon without
 * shipping the icon set to the browser. Unknown names are 404; the set loads on first use.
 */
export function listingIconRoutes(): Hono {
  const app = new Hono();
  app.get('/web/icons/:file', async (c) => {
    const file = c.req.param('file');
    if (!file.endsWith('.svg')) return c.notFound();
    const svg = (await loadIcons()).get(file.slice(0, -4));
    if (svg === undefined) return c.notFound();
    return c.body(svg, 200, {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
      // An SVG opened on its own runs no script of ours, and none of its own.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
  });
  return app;
}
