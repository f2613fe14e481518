// The free icon set widgets may name. Read from Font Awesome Free's own packages (solid, regular,
// brands: names and their aliases). When @platform/ui exports its list of free icon names, read
// that instead, so that the CLI and the widget chrome agree by construction.

interface IconDefinitionLike {
  readonly iconName?: unknown;
  readonly icon?: readonly unknown[];
}

let cached: Promise<ReadonlySet<string>> | undefined;

/** Every free icon name (kebab-case, aliases included). Loaded once, on first use. */
export function freeIconNames(): Promise<ReadonlySet<string>> {
  cached ??= Promise.all([
    import('@fortawesome/free-solid-svg-icons'),
    import('@fortawesome/free-regular-svg-icons'),
    import('@fortawesome/free-brands-svg-icons'),
  ]).then((sets) => {
    const names = new Set<string>();
    for (const set of sets) {
      for (const value of Object.values(set as unknown as Record<string, IconDefinitionLike>)) {
        if (typeof value?.iconName !== 'string') continue;
        names.add(value.iconName);
        // icon[2] lists the icon's alias names (and unicode aliases, which are numbers).
        const aliases = value.icon?.[2];
        if (Array.isArray(aliases))
          for (const alias of aliases) if (typeof alias === 'string') names.add(alias);
      }
    }
    return names;
  });
  return cached;
}
