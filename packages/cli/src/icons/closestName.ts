/**
 * The candidate nearest to `name` by edit distance, if it is near enough to be what was meant
 * (at most a third of the name's length, and at least 1, edits away); ties go to the first candidate.
 * @example closestName('hous', ['house', 'mouse-pointer']) // 'house'
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const distance = editDistance(name, candidate, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

// Levenshtein distance, giving up (returning `ceiling`) once every path is at least `ceiling` long.
function editDistance(a: string, b: string, ceiling: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= ceiling) return ceiling;
    previous = current;
  }
  return previous[b.length]!;
}
