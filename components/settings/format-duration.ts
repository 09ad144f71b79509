/** Seconds as people read them: "45 s", "10 min", "1 h 30 min", "2 d". */
export function formatDuration(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let left = Math.max(0, Math.floor(seconds));
  for (const [size, name] of units) {
    if (left >= size && parts.length < 2) {
      parts.push(`${Math.floor(left / size)} ${name}`);
      left %= size;
    }
  }
  return parts.length > 0 ? parts.join(' ') : '0 s';
}
