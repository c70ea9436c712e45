/** `my-cool_server` → `My Cool Server`: a name as people read it (titles, form labels). */
export function titleFromName(name: string): string {
  return name
    .split(/[-_\s]+/)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
