/**
 * The "index catching up" note. While a large backlog is read a slice per answer, the count of
 * files left moves slowly; repeating it in every answer costs tokens and says nothing. So it is
 * said once, again only when it moved by a quarter (and by at least 10 files), and once more
 * when the backlog is gone.
 */
export function createBacklogNote(): (pending: number) => string {
  let told: number | null = null;
  return (pending) => {
    if (pending <= 0) {
      if (told === null) return '';
      told = null;
      return '(index caught up)';
    }
    if (told !== null && Math.abs(pending - told) < Math.max(10, told / 4)) return '';
    told = pending;
    return `(index catching up: ${pending} transcript files not read yet; \`tapedeck index\` finishes now)`;
  };
}
