/**
 * `compute` remembered per key, for at most `max` keys: past that all are forgotten at once, so
 * keys a caller invents cannot grow it. For pure functions of the key whose answers are read,
 * never changed.
 * @example const lower = boundedMemo(1024, (name) => name.toLowerCase());
 */
export function boundedMemo<V>(max: number, compute: (key: string) => V): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    if (known.has(key)) return known.get(key) as V;
    const value = compute(key);
    if (known.size >= max) known.clear();
    known.set(key, value);
    return value;
  };
}
