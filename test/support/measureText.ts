/**
 * Line boxes of a page's text, measured in the browser (pass `measureText` to page.evaluate: it is
 * self-contained, so Playwright can send its source). For each element that `selector` matches: how
 * many lines its text takes, the words a line break cuts, how far its text reaches beside the visible
 * width of its panel (its closest ancestor matching `within`), and the box that scrolls it sideways.
 */

export interface Box {
  readonly left: number;
  readonly right: number;
}

export interface TextLayout {
  readonly text: string;
  /** Distinct lines its characters sit on. */
  readonly lines: number;
  /** "…abc|def…" where a line break falls between two characters of which neither is a space or a hyphen. */
  readonly broken: readonly string[];
  /** The leftmost and rightmost pixel its characters reach (viewport coordinates). */
  readonly reach: Box;
  /** The panel's visible content box (its client area: no border, no scrollbar); null without `within`. */
  readonly panel: Box | null;
  /** The nearest box from the element up to the panel that scrolls sideways (overflow-x auto or scroll), visible part; null if none. */
  readonly scroller: (Box & { readonly isPanel: boolean }) | null;
  /** The widest run of characters with no space on one line, in pixels: what no wrapping can make narrower. */
  readonly widestWord: number;
}

export function measureText(args: { readonly selector: string; readonly within?: string }): TextLayout[] {
  const visibleBox = (e: Element): Box => {
    const edge = e.getBoundingClientRect();
    return { left: edge.left + e.clientLeft, right: edge.left + e.clientLeft + e.clientWidth };
  };
  const out: TextLayout[] = [];
  for (const el of Array.from(document.querySelectorAll(args.selector))) {
    const centres: Array<{ mid: number; height: number }> = [];
    const broken: string[] = [];
    let left = Infinity;
    let right = -Infinity;
    let widestWord = 0;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const range = document.createRange();
      let previous: DOMRect | null = null;
      let wordLeft: number | null = null;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || /\s/.test(text[i]!)) {
          wordLeft = null;
          continue;
        }
        centres.push({ mid: r.top + r.height / 2, height: r.height });
        left = Math.min(left, r.left);
        right = Math.max(right, r.right);
        const newLine = previous !== null && r.top >= previous.bottom - previous.height / 2;
        if (newLine && !/[\s-]/.test(text[i - 1]!)) broken.push(`${text.slice(Math.max(0, i - 10), i)}|${text.slice(i, i + 10)}`);
        if (wordLeft === null || newLine) wordLeft = r.left;
        widestWord = Math.max(widestWord, r.right - wordLeft);
        previous = r;
      }
    }
    // Characters whose middles lie within half a line of each other share a line.
    centres.sort((a, b) => a.mid - b.mid);
    let lines = 0;
    let last = -Infinity;
    for (const c of centres) {
      if (c.mid - last > c.height / 2) lines++;
      last = c.mid;
    }
    const panel = args.within === undefined ? null : el.closest(args.within);
    let scroller: Element | null = null;
    for (let e: Element | null = el; e !== null && scroller === null; e = e === panel ? null : e.parentElement) if (/auto|scroll/.test(getComputedStyle(e).overflowX)) scroller = e;
    out.push({
      text: el.textContent ?? '',
      lines,
      broken,
      reach: { left, right },
      panel: panel === null ? null : visibleBox(panel),
      scroller: scroller === null ? null : { ...visibleBox(scroller), isPanel: scroller === panel },
      widestWord,
    });
  }
  return out;
}
