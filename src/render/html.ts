/** Text for HTML (and inline SVG) element content and attribute values: nothing in it can become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
